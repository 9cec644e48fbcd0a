/**
 * The agents skills are installed for, and where each looks: one table, as data. The folders are the ones the
 * widely used `skills` client (npm `skills` 1.7.4) installs into, so a skill installed by either is found by the
 * same agents in the same place:
 *
 * - `project`: a folder inside the project, `/`-separated (`.agents/skills` is the shared folder many agents read);
 * - `global`: the user's folder: `~/` is the home folder, `$XDG_CONFIG/` is `XDG_CONFIG_HOME` (when absolute) or
 *   `~/.config`; `$VAR|~/.agent/skills` is `$VAR/skills` when the variable is set (`CLAUDE_CONFIG_DIR` moves
 *   `~/.claude`), and a list gives folders tried in turn, the first whose agent folder exists winning;
 * - `detect`: what says the agent is used here: paths in the project, or (`~/`, `$XDG_CONFIG/`) in the home folder.
 *
 * This module also turns the command line's choices (project or `--global`, `--agent`, detection) into the folders
 * an install writes to.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { usageError } from './exit-codes.js';

export interface AgentSpec {
  key: string;
  name: string;
  /** Relative to the project, `/`-separated; null when the agent reads no project folder. */
  project: string | null;
  /** The user's folder (see above); null when the agent has none. */
  global: string | readonly string[] | null;
  /** Paths whose presence says the agent is used (see above). */
  detect: readonly string[];
}

/** The folder every agent of the Agent Skills family can be pointed at, in a project (and `~/.agents/skills`). */
export const SHARED_DIR = '.agents/skills';

/**
 * Every agent, in the order the `skills` client lists them, the twenty most used first. Detection follows the
 * `skills` client too (its agent's configuration folder in the home folder), and adds the agent's folder in the
 * project, so a project that carries `.claude/` gets Claude Code's folder on any machine.
 */
export const AGENTS: readonly AgentSpec[] = [
  {
    key: 'claude-code',
    name: 'Claude Code',
    project: '.claude/skills',
    global: '$CLAUDE_CONFIG_DIR|~/.claude/skills',
    detect: ['.claude', '$CLAUDE_CONFIG_DIR|~/.claude'],
  },
  { key: 'codex', name: 'Codex', project: '.agents/skills', global: '~/.agents/skills', detect: ['.codex', '$CODEX_HOME|~/.codex'] },
  { key: 'cursor', name: 'Cursor', project: '.agents/skills', global: '~/.cursor/skills', detect: ['.cursor', '~/.cursor'] },
  {
    key: 'github-copilot',
    name: 'GitHub Copilot',
    project: '.agents/skills',
    global: '~/.copilot/skills',
    detect: ['.github/copilot-instructions.md', '~/.copilot'],
  },
  { key: 'gemini-cli', name: 'Gemini CLI', project: '.agents/skills', global: '~/.gemini/skills', detect: ['.gemini', '~/.gemini'] },
  {
    key: 'opencode',
    name: 'OpenCode',
    project: '.agents/skills',
    global: '$XDG_CONFIG/opencode/skills',
    detect: ['.opencode', 'opencode.json', '$XDG_CONFIG/opencode'],
  },
  {
    key: 'windsurf',
    name: 'Windsurf',
    project: '.windsurf/skills',
    global: '~/.codeium/windsurf/skills',
    detect: ['.windsurf', '~/.codeium/windsurf'],
  },
  { key: 'cline', name: 'Cline', project: '.agents/skills', global: '~/.agents/skills', detect: ['.clinerules', '~/.cline'] },
  { key: 'roo', name: 'Roo Code', project: '.roo/skills', global: '~/.roo/skills', detect: ['.roo', '~/.roo'] },
  { key: 'goose', name: 'Goose', project: '.goose/skills', global: '$XDG_CONFIG/goose/skills', detect: ['.goose', '$XDG_CONFIG/goose'] },
  { key: 'amp', name: 'Amp', project: '.agents/skills', global: '$XDG_CONFIG/agents/skills', detect: ['$XDG_CONFIG/amp'] },
  { key: 'continue', name: 'Continue', project: '.continue/skills', global: '~/.continue/skills', detect: ['.continue', '~/.continue'] },
  { key: 'kiro-cli', name: 'Kiro CLI', project: '.kiro/skills', global: '~/.kiro/skills', detect: ['.kiro', '~/.kiro'] },
  { key: 'qwen-code', name: 'Qwen Code', project: '.qwen/skills', global: '~/.qwen/skills', detect: ['.qwen', '~/.qwen'] },
  { key: 'junie', name: 'Junie', project: '.junie/skills', global: '~/.junie/skills', detect: ['.junie', '~/.junie'] },
  { key: 'augment', name: 'Augment', project: '.augment/skills', global: '~/.augment/skills', detect: ['.augment', '~/.augment'] },
  { key: 'trae', name: 'Trae', project: '.trae/skills', global: '~/.trae/skills', detect: ['.trae', '~/.trae'] },
  {
    key: 'openhands',
    name: 'OpenHands',
    project: '.openhands/skills',
    global: '~/.openhands/skills',
    detect: ['.openhands', '~/.openhands'],
  },
  { key: 'zed', name: 'Zed', project: '.agents/skills', global: '~/.agents/skills', detect: ['.zed', '$XDG_CONFIG/zed'] },
  { key: 'warp', name: 'Warp', project: '.agents/skills', global: '~/.agents/skills', detect: ['.warp', '~/.warp'] },
  {
    key: 'aider-desk',
    name: 'AiderDesk',
    project: '.aider-desk/skills',
    global: '~/.aider-desk/skills',
    detect: ['.aider-desk', '~/.aider-desk'],
  },
  {
    key: 'antigravity',
    name: 'Antigravity',
    project: '.agents/skills',
    global: '~/.gemini/antigravity/skills',
    detect: ['~/.gemini/antigravity'],
  },
  {
    key: 'antigravity-cli',
    name: 'Antigravity CLI',
    project: '.agents/skills',
    global: '~/.gemini/antigravity-cli/skills',
    detect: ['~/.gemini/antigravity-cli'],
  },
  { key: 'astrbot', name: 'AstrBot', project: 'data/skills', global: '~/.astrbot/data/skills', detect: ['data/skills', '~/.astrbot'] },
  {
    key: 'autohand-code',
    name: 'Autohand Code CLI',
    project: '.autohand/skills',
    global: '$AUTOHAND_HOME|~/.autohand/skills',
    detect: ['.autohand', '$AUTOHAND_HOME|~/.autohand'],
  },
  { key: 'bob', name: 'IBM Bob', project: '.bob/skills', global: '~/.bob/skills', detect: ['.bob', '~/.bob'] },
  {
    key: 'openclaw',
    name: 'OpenClaw',
    project: 'skills',
    global: ['~/.openclaw/skills', '~/.clawdbot/skills', '~/.moltbot/skills'],
    detect: ['~/.openclaw', '~/.clawdbot', '~/.moltbot'],
  },
  {
    key: 'codearts-agent',
    name: 'CodeArts Agent',
    project: '.codeartsdoer/skills',
    global: '~/.codeartsdoer/skills',
    detect: ['.codeartsdoer', '~/.codeartsdoer'],
  },
  {
    key: 'codebuddy',
    name: 'CodeBuddy',
    project: '.codebuddy/skills',
    global: '~/.codebuddy/skills',
    detect: ['.codebuddy', '~/.codebuddy'],
  },
  {
    key: 'codemaker',
    name: 'Codemaker',
    project: '.codemaker/skills',
    global: '~/.codemaker/skills',
    detect: ['.codemaker', '~/.codemaker'],
  },
  {
    key: 'codestudio',
    name: 'Code Studio',
    project: '.codestudio/skills',
    global: '~/.codestudio/skills',
    detect: ['.codestudio', '~/.codestudio'],
  },
  {
    key: 'command-code',
    name: 'Command Code',
    project: '.commandcode/skills',
    global: '~/.commandcode/skills',
    detect: ['.commandcode', '~/.commandcode'],
  },
  {
    key: 'cortex',
    name: 'Cortex Code',
    project: '.cortex/skills',
    global: '~/.snowflake/cortex/skills',
    detect: ['.cortex', '~/.snowflake/cortex'],
  },
  { key: 'crush', name: 'Crush', project: '.crush/skills', global: '~/.config/crush/skills', detect: ['.crush', '~/.config/crush'] },
  { key: 'deepagents', name: 'Deep Agents', project: '.agents/skills', global: '~/.deepagents/agent/skills', detect: ['~/.deepagents'] },
  {
    key: 'devin',
    name: 'Devin for Terminal',
    project: '.devin/skills',
    global: '$XDG_CONFIG/devin/skills',
    detect: ['.devin', '$XDG_CONFIG/devin'],
  },
  { key: 'dexto', name: 'Dexto', project: '.agents/skills', global: '~/.agents/skills', detect: ['~/.dexto'] },
  { key: 'droid', name: 'Droid', project: '.agents/skills', global: '~/.factory/skills', detect: ['.factory', '~/.factory'] },
  { key: 'eve', name: 'Eve', project: 'agent/skills', global: null, detect: ['agent/skills'] },
  { key: 'firebender', name: 'Firebender', project: '.agents/skills', global: '~/.firebender/skills', detect: ['~/.firebender'] },
  { key: 'forgecode', name: 'ForgeCode', project: '.forge/skills', global: '~/.forge/skills', detect: ['.forge', '~/.forge'] },
  { key: 'fx', name: 'fx', project: '.agents/skills', global: '~/.agents/skills', detect: ['~/.fx'] },
  {
    key: 'grok',
    name: 'Grok Build',
    project: '.grok/skills',
    global: '$GROK_HOME|~/.grok/skills',
    detect: ['.grok', '$GROK_HOME|~/.grok'],
  },
  {
    key: 'hermes-agent',
    name: 'Hermes Agent',
    project: '.hermes/skills',
    global: '$HERMES_HOME|~/.hermes/skills',
    detect: ['.hermes', '$HERMES_HOME|~/.hermes'],
  },
  {
    key: 'inference-sh',
    name: 'inference.sh',
    project: '.inferencesh/skills',
    global: '~/.inferencesh/skills',
    detect: ['.inferencesh', '~/.inferencesh'],
  },
  { key: 'jazz', name: 'Jazz', project: '.jazz/skills', global: '~/.jazz/skills', detect: ['.jazz', '~/.jazz'] },
  { key: 'iflow-cli', name: 'iFlow CLI', project: '.iflow/skills', global: '~/.iflow/skills', detect: ['.iflow', '~/.iflow'] },
  { key: 'kilo', name: 'Kilo Code', project: '.agents/skills', global: '~/.kilo/skills', detect: ['.kilocode', '~/.kilo', '~/.kilocode'] },
  {
    key: 'kimchi',
    name: 'Kimchi',
    project: '.kimchi/skills',
    global: '~/.config/kimchi/harness/skills',
    detect: ['.kimchi', '~/.config/kimchi'],
  },
  {
    key: 'kimi-code-cli',
    name: 'Kimi Code CLI',
    project: '.agents/skills',
    global: '~/.agents/skills',
    detect: ['~/.kimi-code', '~/.kimi'],
  },
  { key: 'kode', name: 'Kode', project: '.kode/skills', global: '~/.kode/skills', detect: ['.kode', '~/.kode'] },
  { key: 'lingma', name: 'Lingma', project: '.lingma/skills', global: '~/.lingma/skills', detect: ['.lingma', '~/.lingma'] },
  { key: 'loaf', name: 'Loaf', project: '.agents/skills', global: '~/.agents/skills', detect: ['~/.loaf'] },
  { key: 'mcpjam', name: 'MCPJam', project: '.mcpjam/skills', global: '~/.mcpjam/skills', detect: ['.mcpjam', '~/.mcpjam'] },
  {
    key: 'minimax-code',
    name: 'MiniMax Code',
    project: '.minimax/skills',
    global: '~/.minimax/skills',
    detect: ['.minimax', '~/.minimax'],
  },
  {
    key: 'mistral-vibe',
    name: 'Mistral Vibe',
    project: '.vibe/skills',
    global: '$VIBE_HOME|~/.vibe/skills',
    detect: ['.vibe', '$VIBE_HOME|~/.vibe'],
  },
  { key: 'moxby', name: 'Moxby', project: '.moxby/skills', global: '~/.moxby/skills', detect: ['.moxby', '~/.moxby'] },
  { key: 'mux', name: 'Mux', project: '.mux/skills', global: '~/.mux/skills', detect: ['.mux', '~/.mux'] },
  { key: 'ona', name: 'Ona', project: '.ona/skills', global: '~/.ona/skills', detect: ['.ona', '~/.ona'] },
  { key: 'pi', name: 'Pi', project: '.agents/skills', global: '~/.agents/skills', detect: ['.pi', '~/.pi'] },
  {
    key: 'posit-assistant',
    name: 'Posit Assistant',
    project: '.posit/assistant/skills',
    global: '~/.posit/assistant/skills',
    detect: ['.posit/assistant', '~/.posit/assistant', '~/.positai'],
  },
  { key: 'qoder', name: 'Qoder', project: '.qoder/skills', global: '~/.qoder/skills', detect: ['.qoder', '~/.qoder'] },
  { key: 'qoder-cn', name: 'Qoder CN', project: '.qoder/skills', global: '~/.qoder-cn/skills', detect: ['~/.qoder-cn'] },
  { key: 'replit', name: 'Replit', project: '.agents/skills', global: '$XDG_CONFIG/agents/skills', detect: ['.replit'] },
  { key: 'reasonix', name: 'Reasonix', project: '.reasonix/skills', global: '~/.reasonix/skills', detect: ['.reasonix', '~/.reasonix'] },
  { key: 'rovodev', name: 'Rovo Dev', project: '.rovodev/skills', global: '~/.rovodev/skills', detect: ['.rovodev', '~/.rovodev'] },
  { key: 'sarvam-code', name: 'Sarvam Code', project: '.agents/skills', global: '~/.agents/skills', detect: ['~/.sarvam'] },
  {
    key: 'tabnine-cli',
    name: 'Tabnine CLI',
    project: '.tabnine/agent/skills',
    global: '~/.tabnine/agent/skills',
    detect: ['.tabnine', '~/.tabnine'],
  },
  {
    key: 'terramind',
    name: 'Terramind',
    project: '.terramind/skills',
    global: '~/.terramind/skills',
    detect: ['.terramind', '~/.terramind'],
  },
  {
    key: 'tinycloud',
    name: 'Tinycloud',
    project: '.tinycloud/skills',
    global: '~/.tinycloud/skills',
    detect: ['.tinycloud', '~/.tinycloud'],
  },
  { key: 'trae-cn', name: 'Trae CN', project: '.trae/skills', global: '~/.trae-cn/skills', detect: ['~/.trae-cn'] },
  { key: 'zcode', name: 'ZCode', project: '.zcode/skills', global: '~/.zcode/skills', detect: ['.zcode', '~/.zcode'] },
  { key: 'zencoder', name: 'Zencoder', project: '.zencoder/skills', global: '~/.zencoder/skills', detect: ['.zencoder', '~/.zencoder'] },
  { key: 'zenflow', name: 'Zenflow', project: '.zencoder/skills', global: '~/.zencoder/skills', detect: ['~/.zencoder'] },
  { key: 'neovate', name: 'Neovate', project: '.neovate/skills', global: '~/.neovate/skills', detect: ['.neovate', '~/.neovate'] },
  { key: 'pochi', name: 'Pochi', project: '.pochi/skills', global: '~/.pochi/skills', detect: ['.pochi', '~/.pochi'] },
  { key: 'promptscript', name: 'PromptScript', project: '.agents/skills', global: null, detect: ['.promptscript', 'promptscript.yaml'] },
  { key: 'adal', name: 'AdaL', project: '.adal/skills', global: '~/.adal/skills', detect: ['.adal', '~/.adal'] },
  { key: 'universal', name: 'Universal (.agents/skills)', project: '.agents/skills', global: '$XDG_CONFIG/agents/skills', detect: [] },
];

/** What the folders depend on: the home folder, the working folder and the environment. */
export interface AgentEnv {
  home: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Whether a path exists (detection); the file system unless a test says otherwise. */
  exists?: (file: string) => boolean;
}

export function agentEnv(io: { env: NodeJS.ProcessEnv; cwd: string }): AgentEnv {
  return { home: io.env.HOME || homedir(), cwd: io.cwd, env: io.env };
}

export function findAgent(key: string): AgentSpec | undefined {
  return AGENTS.find((a) => a.key === key);
}

function xdgConfig(e: AgentEnv): string {
  const xdg = e.env.XDG_CONFIG_HOME;
  return xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(e.home, '.config');
}

/**
 * A user path as an absolute one: `~/…`, `$XDG_CONFIG/…`, or `$VAR|~/.agent/…` (the variable, when set, replaces the
 * agent's own folder `~/.agent`); null for a project path.
 */
function userPath(spec: string, e: AgentEnv): string | null {
  const override = /^\$([A-Z_]+)\|(.+)$/.exec(spec);
  if (override !== null) {
    const value = e.env[override[1]!]?.trim();
    const rest = override[2]!;
    if (value) return path.join(path.resolve(e.cwd, value), ...rest.split('/').slice(2));
    return userPath(rest, e);
  }
  const segments = spec.split('/');
  if (segments[0] === '~') return path.join(e.home, ...segments.slice(1));
  if (segments[0] === '$XDG_CONFIG') return path.join(xdgConfig(e), ...segments.slice(1));
  return null;
}

/** The agent's folder in a project, or null when it has none. */
export function projectDir(agent: AgentSpec, root: string): string | null {
  return agent.project === null ? null : path.join(root, ...agent.project.split('/'));
}

/** The agent's folder for the user (`--global`), or null when it has none. */
export function globalDir(agent: AgentSpec, e: AgentEnv): string | null {
  if (agent.global === null) return null;
  const exists = e.exists ?? existsSync;
  const choices = (typeof agent.global === 'string' ? [agent.global] : agent.global).map((g) => userPath(g, e)!);
  // Of several folders, the first whose agent folder (the skills folder's parent) exists; else the first.
  return choices.find((dir) => exists(path.dirname(dir))) ?? choices[0] ?? null;
}

export type ScopeKind = 'project' | 'global';

/** Whether the agent looks used: one of its markers exists (in the project, for a project install, or the home folder). */
export function detected(agent: AgentSpec, kind: ScopeKind, e: AgentEnv): boolean {
  const exists = e.exists ?? existsSync;
  return agent.detect.some((marker) => {
    const user = userPath(marker, e);
    if (user !== null) return exists(user);
    return kind === 'project' && exists(path.join(e.cwd, ...marker.split('/')));
  });
}

export function detectAgents(kind: ScopeKind, e: AgentEnv): AgentSpec[] {
  return AGENTS.filter((a) => a.key !== 'universal' && detected(a, kind, e));
}

/**
 * Where a command works: a project (the working folder), the user's folders (`--global`), or one folder named by
 * `--dir` (the only layout before agents were told apart, still there for scripts).
 */
export interface Scope {
  kind: ScopeKind | 'dir';
  /** What the lock file's paths are relative to: the project, the home folder, or the `--dir` folder. */
  base: string;
  /** The shared folder: the lock file lives here, and the one copy links point at. */
  shared: string;
  /** The folder whose lock file earlier versions wrote (`.claude/skills`), read and merged; null for `--dir`. */
  legacy: string | null;
}

export function projectScope(e: AgentEnv): Scope {
  return {
    kind: 'project',
    base: e.cwd,
    shared: path.join(e.cwd, ...SHARED_DIR.split('/')),
    legacy: path.join(e.cwd, '.claude', 'skills'),
  };
}

export function globalScope(e: AgentEnv): Scope {
  return {
    kind: 'global',
    base: e.home,
    shared: path.join(e.home, ...SHARED_DIR.split('/')),
    legacy: path.join(e.home, '.claude', 'skills'),
  };
}

export function dirScope(dir: string): Scope {
  return { kind: 'dir', base: dir, shared: dir, legacy: null };
}

/** One folder skills are installed into, and the agents that read it. */
export interface Target {
  dir: string;
  agents: string[];
}

export interface Targets {
  targets: Target[];
  /** The agents found by detection (empty when --agent chose). */
  detected: string[];
  /** Nothing detected and nothing chosen: only the shared folder. */
  fallback: boolean;
}

/** `--agent a,b --agent c` → keys; `all` stands alone. Unknown keys are a usage error naming the known ones. */
export function parseAgentOption(values: readonly string[] | undefined): string[] | 'all' | null {
  if (values === undefined || values.length === 0) return null;
  const keys = values
    .flatMap((v) => v.split(','))
    .map((k) => k.trim().toLowerCase())
    .filter((k) => k !== '');
  if (keys.includes('all')) {
    if (keys.length > 1) throw usageError('--agent all stands alone: it means every agent.');
    return 'all';
  }
  if (keys.length === 0) throw usageError('--agent needs an agent key (or all).');
  const unknown = keys.filter((k) => findAgent(k) === undefined);
  if (unknown.length > 0)
    throw usageError(`Unknown agent ${unknown.join(', ')}. Known agents: ${AGENTS.map((a) => a.key).join(', ')} (or all).`);
  return [...new Set(keys)];
}

/** An agent's folder in the scope, or null when it has none there. */
export function agentDir(agent: AgentSpec, scope: Scope, e: AgentEnv): string | null {
  if (scope.kind === 'dir') return null;
  return scope.kind === 'project' ? projectDir(agent, scope.base) : globalDir(agent, e);
}

/**
 * The folders an install writes to. Chosen agents (`--agent`) get exactly their folders; otherwise the agents detected
 * here, plus the shared folder always (alone when nothing is detected). Agents reading the same folder share one target.
 */
export function resolveTargets(scope: Scope, chosen: string[] | 'all' | null, e: AgentEnv): Targets {
  if (scope.kind === 'dir') {
    if (chosen !== null) throw usageError('--agent chooses agent folders; --dir names one folder itself. Give one of them.');
    return { targets: [{ dir: scope.shared, agents: [] }], detected: [], fallback: false };
  }
  const kind = scope.kind;
  const found = chosen === null ? detectAgents(kind, e) : [];
  const agents =
    chosen === 'all' ? AGENTS.filter((a) => agentDir(a, scope, e) !== null) : chosen === null ? found : chosen.map((k) => findAgent(k)!);
  const byDir = new Map<string, Target>();
  if (chosen === null) byDir.set(scope.shared, { dir: scope.shared, agents: [] });
  for (const agent of agents) {
    const dir = agentDir(agent, scope, e);
    if (dir === null) {
      throw usageError(
        `${agent.name} (${agent.key}) has no ${kind === 'global' ? 'global' : 'project'} skills folder; choose another agent.`,
      );
    }
    const target = byDir.get(dir) ?? { dir, agents: [] };
    target.agents.push(agent.key);
    byDir.set(dir, target);
  }
  // The shared folder first: in symlink mode it holds the copy the others point at.
  const targets = [...byDir.values()].sort((a, b) => Number(b.dir === scope.shared) - Number(a.dir === scope.shared));
  return { targets, detected: found.map((a) => a.key), fallback: chosen === null && found.length === 0 };
}

export type LinkMode = 'copy' | 'symlink';

/** `--copy`, `--symlink`, or by default: one copy for one folder, links to the shared copy for several (as `skills` does). */
export function linkModeFor(targets: Target[], flags: { copy?: boolean | undefined; symlink?: boolean | undefined }): LinkMode {
  if (flags.copy && flags.symlink) throw usageError('Give either --copy or --symlink, not both.');
  if (flags.copy) return 'copy';
  if (flags.symlink) return 'symlink';
  return targets.length > 1 ? 'symlink' : 'copy';
}

/** Every skills folder of the scope: where this command may remove or replace an installed skill's folder. */
export function knownDirs(scope: Scope, e: AgentEnv): Set<string> {
  const dirs = new Set<string>([scope.shared]);
  if (scope.legacy !== null) dirs.add(scope.legacy);
  if (scope.kind === 'dir') return dirs;
  for (const agent of AGENTS) {
    const dir = agentDir(agent, scope, e);
    if (dir !== null) dirs.add(dir);
    // Every choice of a listed global folder, whichever exists now.
    if (scope.kind === 'global' && Array.isArray(agent.global))
      for (const g of agent.global as readonly string[]) dirs.add(userPath(g, e)!);
  }
  return dirs;
}
