import { readdir, unlink } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import type { ScanSummary } from '@skill-registry/client';
import {
  agentEnv,
  AGENTS,
  dirScope,
  findAgent,
  globalScope,
  knownDirs,
  linkModeFor,
  parseAgentOption,
  projectScope,
  resolveTargets,
  SHARED_DIR,
  type AgentEnv,
  type Scope,
} from '../agents.js';
import { COMMON_HELP, parse, type Command } from '../command.js';
import { CliError, EXIT, exitCodeFor, usageError } from '../exit-codes.js';
import { installSkill, type InstallOutcome, type PlacedAt } from '../installer.js';
import type { Io } from '../io.js';
import { fullNameOf, installedFolder, LOCK_FILE, placePath, type InstalledSkill, type LockFile, type Place } from '../lockfile.js';
import { errorToJson, formatTime, Output, table } from '../output.js';
import { linkTarget, lstatOrNull, removeCopy, SLUG } from '../place-files.js';
import { anonymousClient, clientFor, resolveTarget } from '../registry.js';
import type { ScanPolicy } from '../scan-policy.js';
import { verdictText } from '../scan-report.js';
import { linkedCopy, readScopeLock, updateScopeLock } from '../scope-lock.js';

export const SCOPE_OPTIONS = {
  dir: { type: 'string' },
  global: { type: 'boolean', short: 'g' },
} as const;

export const SCOPE_HELP = `  -g, --global     the user's folders (~/.agents/skills and each agent's own) instead of the project's
  --dir DIR        one folder only, DIR (no agent folders), with its own DIR/${LOCK_FILE}`;

const TARGET_OPTIONS = {
  agent: { type: 'string', short: 'a', multiple: true },
  symlink: { type: 'boolean' },
  copy: { type: 'boolean' },
} as const;

const TARGET_HELP = `  -a, --agent KEY  install for these agents only (repeat it, or a,b,c); \`all\` for every agent.
                   Without it: the agents found here (their folder in the project or your home folder),
                   plus the shared ${SHARED_DIR}; only ${SHARED_DIR} when none is found
  --symlink        one copy in ${SHARED_DIR}/<slug>, and a link to it in each other agent folder
                   (the default when there are several folders)
  --copy           a full copy in each folder (the default for one folder)
  --force          replace a different installed version (or a folder not installed by this command)`;

/** The scope the options name: `--dir`, `--global`, or the project in the working folder. */
export function scopeOf(io: Io, values: { dir?: string | undefined; global?: boolean | undefined }, e: AgentEnv): Scope {
  const dir = skillsDir(io, values);
  if (values.dir !== undefined) return dirScope(dir);
  return values.global ? globalScope(e) : projectScope(e);
}

/** A path as people read it: relative to the project, `~/…` in the home folder, else absolute. */
export function shown(scope: Scope, e: AgentEnv, file: string): string {
  const inside = (root: string) => {
    const rel = path.relative(root, file);
    return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : null;
  };
  if (scope.kind === 'project') return inside(scope.base) ?? file;
  const home = inside(e.home);
  return home !== null ? `~/${home}` : file;
}

/** Words filled into lines of at most 110 characters, each starting with `indent`. */
function wrap(text: string, indent: string): string {
  const lines: string[] = [];
  let line = indent;
  for (const word of text.split(' ')) {
    if (line.length + word.length + 1 > 110 && line.trim() !== '') {
      lines.push(line.trimEnd());
      line = indent;
    }
    line += `${word} `;
  }
  lines.push(line.trimEnd());
  return lines.join('\n');
}

function agentNames(keys: readonly string[]): string {
  return keys.map((k) => findAgent(k)?.name ?? k).join(', ');
}

const SCAN_OPTIONS = {
  'allow-suspicious': { type: 'boolean' },
  'require-clean': { type: 'boolean' },
} as const;

const SCAN_HELP = `  --allow-suspicious  install versions the package scanner judged suspicious
  --require-clean     install only versions scanned clean: refuse notice and suspicious ones, and versions
                      never scanned (for CI)`;

const SCAN_POLICY_HELP = `Every version's scan verdict is printed before it is installed. A malicious version (quarantined) is never
installed (exit 9); a suspicious one needs --allow-suspicious (exit 10 without); with --require-clean anything
not clean is refused (exit 10). A refusal prints the findings, grouped by file. A version the registry has not
scanned yet is scanned here once downloaded, with the same scanner and the same policy, before it is written.`;

function scanPolicy(values: { 'allow-suspicious'?: boolean | undefined; 'require-clean'?: boolean | undefined }): ScanPolicy {
  return { allowSuspicious: values['allow-suspicious'] === true, requireClean: values['require-clean'] === true };
}

/** Prints each verdict on stderr as it is known, so stdout keeps only results. */
function scanNotes(out: Output): (label: string, scan: ScanSummary, by: 'registry' | 'local') => void {
  return (label, scan, by) => out.note(`${label}: scan${by === 'local' ? ' on this machine' : ''}: ${verdictText(scan)}`);
}

/**
 * The one folder of the layout before agents were told apart: `--dir`, else `~/.claude/skills` (`--global`), else
 * `./.claude/skills`. `--dir` still names the folder a command works in; the other two are where a lock file written
 * by an earlier version is found (and merged into the scope's).
 */
export function skillsDir(io: Io, values: { dir?: string | undefined; global?: boolean | undefined }): string {
  if (values.dir !== undefined && values.global) throw usageError('Give either --dir or --global, not both.');
  if (values.dir !== undefined) return path.resolve(io.cwd, values.dir);
  if (values.global) return path.join(io.env.HOME || homedir(), '.claude', 'skills');
  return path.join(io.cwd, '.claude', 'skills');
}

/** `@acme/pdf-tools`: one scope and one slug, neither holding `@` or `/`. */
const SCOPED_NAME = /^@[^@/]+\/[^@/]+$/;

/**
 * `pdf-tools@1.2.0` or `@acme/pdf-tools@1.2.0` → skill and version; without a version, the latest. A scoped name
 * starts with `@`, so the version's `@` is the first one after the start.
 */
export function parseSpec(spec: string): { skill: string; version: string } {
  const at = spec.indexOf('@', 1);
  const skill = at === -1 ? spec : spec.slice(0, at);
  const version = at === -1 ? 'latest' : spec.slice(at + 1);
  if (skill === '' || version === '' || (skill.startsWith('@') ? !SCOPED_NAME.test(skill) : skill.includes('/')))
    throw usageError(`${JSON.stringify(spec)} is not SKILL or @SCOPE/SKILL, with @VERSION or without.`);
  return { skill, version };
}

/** Runs one step per item; a failure is reported and the others still run. The exit code is the first failure's. */
async function each<I, T>(
  out: Output,
  items: I[],
  step: (item: I) => Promise<T>,
): Promise<{ results: T[]; code: number; failures: unknown[] }> {
  const results: T[] = [];
  const failures: unknown[] = [];
  let code: number = EXIT.ok;
  for (const item of items) {
    try {
      results.push(await step(item));
    } catch (error) {
      if (items.length === 1) throw error;
      if (!out.json) out.error(error);
      failures.push(error);
      if (code === EXIT.ok) code = exitCodeFor(error);
    }
  }
  return { results, code, failures };
}

function verdictOf(outcome: InstallOutcome): string {
  if (outcome.scan !== null) return outcome.scan.verdict;
  return outcome.local_scan !== null ? `${outcome.local_scan.verdict}, on this machine` : 'not scanned';
}

function otherPlaces(outcome: InstallOutcome, scope: Scope, e: AgentEnv): string[] {
  return outcome.places
    .filter((p) => p.path !== outcome.path)
    .map(
      (p) =>
        `  ${p.mode === 'symlink' ? 'linked' : 'copied'} in ${shown(scope, e, p.path)}${p.agents.length ? ` (${agentNames(p.agents)})` : ''}`,
    );
}

function describe(outcome: InstallOutcome, scope: Scope, e: AgentEnv): string[] {
  const where = shown(scope, e, outcome.path);
  const first = (() => {
    switch (outcome.action) {
      case 'unchanged':
        return `${outcome.skill} ${outcome.version} is already installed in ${where}.`;
      case 'replaced':
        return `Replaced ${outcome.skill}${outcome.previous ? ` ${outcome.previous}` : ''} with ${outcome.version} in ${where} (${outcome.files.length} files; scan: ${verdictOf(outcome)}).`;
      case 'installed':
        return `Installed ${outcome.skill} ${outcome.version} in ${where} (${outcome.files.length} files; scan: ${verdictOf(outcome)}).`;
    }
  })();
  return [first, ...otherPlaces(outcome, scope, e)];
}

export const install: Command = {
  name: 'install',
  summary: 'install skills for your agents (their skills folders, and the shared .agents/skills)',
  help: `Usage: skill-registry install SKILL[@VERSION]... [options]

Downloads each skill's package (the latest version unless @VERSION names one), checks its sha256 and its
contents with the registry's own rules, and installs it into the skills folder of each agent, as <slug>/.
SKILL is a slug, or @SCOPE/SLUG for a skill in a user's or an organisation's scope, installed into <slug>/ as
well: a skill whose folder another installed skill already uses is refused (exit 5; uninstall the other first).

Where: in the project (the working folder) unless --global; for the agents found here (Claude Code when
.claude/ exists in the project or ~/.claude in your home folder, Cursor for .cursor/, Codex for ~/.codex, …),
plus the shared ${SHARED_DIR} folder that Codex, Cursor, GitHub Copilot, Gemini CLI, OpenCode, Amp and others
read; or for the agents --agent names. Every place is recorded in ${SHARED_DIR}/${LOCK_FILE} (with --global,
~/${SHARED_DIR}/${LOCK_FILE}), with the version, the package's sha256 and each file's, for list, update,
uninstall and verify.

Agents (KEY: project folder, global folder):
${AGENTS.filter((a) => a.key !== 'universal')
  .slice(0, 20)
  .map((a) => `  ${a.key}: ${a.project ?? '-'}, ${typeof a.global === 'string' ? a.global : (a.global?.[0] ?? '-')}`)
  .join('\n')}
  … and ${AGENTS.length - 20} more:
${wrap(
  AGENTS.slice(20)
    .map((a) => a.key)
    .join(', '),
  '    ',
)}

${SCAN_POLICY_HELP}

${TARGET_HELP}
${SCOPE_HELP}

${SCAN_HELP}

${COMMON_HELP}`,
  async run(args, io) {
    const { values, positionals } = parse(args, { ...SCOPE_OPTIONS, ...TARGET_OPTIONS, ...SCAN_OPTIONS, force: { type: 'boolean' } });
    if (positionals.length === 0) throw usageError('Name at least one skill: skill-registry install SKILL[@VERSION]');
    const specs = positionals.map(parseSpec);
    const out = new Output(io, values.json === true);
    const e = agentEnv(io);
    const scope = scopeOf(io, values, e);
    const resolved = resolveTargets(scope, parseAgentOption(values.agent), e);
    if (scope.kind === 'dir' && values.symlink)
      throw usageError('--symlink links agent folders to the shared copy; --dir installs one folder. Give one of them.');
    const mode = scope.kind === 'dir' ? 'copy' : linkModeFor(resolved.targets, values);
    if (resolved.fallback) {
      out.note(
        `No agent found in this ${scope.kind === 'global' ? 'home folder' : 'project or your home folder'}: installing into ` +
          `${shown(scope, e, scope.shared)}, which Codex, Cursor, GitHub Copilot, Gemini CLI, OpenCode and others read. ` +
          'Name agents with --agent KEY (or --agent all).',
      );
    } else if (resolved.detected.length > 0) {
      out.note(`Agents found: ${agentNames(resolved.detected)}.`);
    }
    const target = await resolveTarget(io, values.registry);
    const client = clientFor(target);
    const { results, code, failures } = await each(out, specs, async (spec) => {
      const outcome = await installSkill({
        client,
        registry: target.registry,
        skill: spec.skill,
        version: spec.version,
        scope,
        knownDirs: knownDirs(scope, e),
        targets: { targets: resolved.targets, mode },
        mode: values.force ? 'force' : 'install',
        scanPolicy: scanPolicy(values),
        onScan: scanNotes(out),
        io,
      });
      if (!out.json) out.result(null, () => describe(outcome, scope, e));
      return outcome;
    });
    if (out.json)
      out.result(
        { dir: scope.shared, scope: scope.kind, mode, targets: resolved.targets, installed: results, failed: failures.map(errorToJson) },
        () => [],
      );
    return code;
  },
};

type PlaceState = 'installed' | 'missing' | 'changed';

interface ListedPlace extends PlacedAt {
  /** `changed`: something else is there (a folder where a link was, a link pointing elsewhere, a file). */
  state: PlaceState;
}

interface ListedSkill {
  /** The folder's name. */
  skill: string;
  /** The installed skill's full name (`@acme/pdf-tools`); the folder's name for an untracked folder. */
  full_name: string;
  version: string | null;
  registry: string | null;
  installed_at: string | null;
  /** `installed` everywhere, `missing` everywhere, `partial`, or a folder the lock file does not know (`untracked`). */
  state: 'installed' | 'missing' | 'partial' | 'untracked';
  path: string;
  places: ListedPlace[];
}

async function placeState(scope: Scope, slug: string, entry: InstalledSkill, place: Place): Promise<PlaceState> {
  const file = placePath(scope.base, place);
  const stats = await lstatOrNull(file);
  if (stats === null) return 'missing';
  if (place.mode === 'copy') return stats.isDirectory() ? 'installed' : 'changed';
  return (await linkTarget(file)) === linkedCopy(scope, slug, entry) ? 'installed' : 'changed';
}

async function listed(scope: Scope, lock: LockFile): Promise<ListedSkill[]> {
  const out: ListedSkill[] = [];
  const folders = new Set<string>([scope.shared]);
  for (const [slug, entry] of Object.entries(lock.skills)) {
    const places: ListedPlace[] = [];
    for (const place of entry.places) {
      const file = placePath(scope.base, place);
      folders.add(path.dirname(file));
      places.push({ agents: place.agents, path: file, mode: place.mode, state: await placeState(scope, slug, entry, place) });
    }
    const states = new Set(places.map((p) => p.state));
    out.push({
      skill: slug,
      full_name: fullNameOf(slug, entry),
      version: entry.version,
      registry: entry.registry,
      installed_at: entry.installed_at,
      state:
        states.size === 1 && states.has('installed') ? 'installed' : states.size === 1 && states.has('missing') ? 'missing' : 'partial',
      path: linkedCopy(scope, slug, entry) ?? places[0]?.path ?? path.join(scope.shared, slug),
      places,
    });
  }
  for (const folder of folders) {
    const names = await readdir(folder, { withFileTypes: true }).catch((error: unknown) => {
      if (['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return [];
      throw error;
    });
    for (const entry of names) {
      if ((entry.isDirectory() || entry.isSymbolicLink()) && !entry.name.startsWith('.') && !Object.hasOwn(lock.skills, entry.name)) {
        const file = path.join(folder, entry.name);
        if (out.some((s) => s.path === file)) continue;
        out.push({
          skill: entry.name,
          full_name: entry.name,
          version: null,
          registry: null,
          installed_at: null,
          state: 'untracked',
          path: file,
          places: [],
        });
      }
    }
  }
  return out.sort((a, b) => (a.skill < b.skill ? -1 : a.skill > b.skill ? 1 : a.path < b.path ? -1 : 1));
}

export const list: Command = {
  name: 'list',
  summary: 'list the installed skills and every place each is installed',
  help: `Usage: skill-registry list [--global | --dir DIR] [--json]

Lists what the lock file (${SHARED_DIR}/${LOCK_FILE}) records: each skill's version, and every place it is
installed (each agent's folder, a copy or a link) with its state: installed, missing, or changed (something
else is there, or a link points elsewhere). A skill is installed, missing (everywhere) or partial. Folders the
lock file does not know are listed as untracked.

${SCOPE_HELP}

${COMMON_HELP}`,
  async run(args, io) {
    const { values, positionals } = parse(args, SCOPE_OPTIONS);
    if (positionals.length > 0) throw usageError(`list takes no arguments (got ${positionals.join(' ')}).`);
    const out = new Output(io, values.json === true);
    const e = agentEnv(io);
    const scope = scopeOf(io, values, e);
    const skills = await listed(scope, await readScopeLock(scope));
    const dir = scope.shared;
    out.result({ dir, scope: scope.kind, skills }, () => {
      if (skills.length === 0) return `No skills installed in ${dir}.`;
      const lines = [
        `${dir}:`,
        ...table(
          ['SKILL', 'VERSION', 'STATE', 'INSTALLED', 'REGISTRY'],
          skills.map((s) => [
            s.full_name === s.skill ? s.skill : `${s.full_name} (${s.skill}/)`,
            s.version ?? '-',
            s.state,
            formatTime(s.installed_at),
            s.registry ?? '-',
          ]),
        ),
      ];
      const rows = skills.flatMap((s) =>
        s.places.map((p) => [s.skill, shown(scope, e, p.path), p.mode, p.agents.length ? p.agents.join(',') : 'shared', p.state]),
      );
      if (rows.length > 0) lines.push('', ...table(['SKILL', 'PLACE', 'MODE', 'AGENTS', 'STATE'], rows));
      return lines;
    });
    return EXIT.ok;
  },
};

export const update: Command = {
  name: 'update',
  summary: 'update installed skills to their latest versions, in every place',
  help: `Usage: skill-registry update [SKILL...] [--global | --dir DIR] [--json]

Installs the latest version of each installed skill (every skill in the lock file unless some are named, by
folder or by full name such as @acme/pdf-tools) from the registry it was installed from, into every place it
is installed (each copy replaced, each link kept).

${SCAN_POLICY_HELP}

${SCOPE_HELP}

${SCAN_HELP}

${COMMON_HELP}`,
  async run(args, io) {
    const { values, positionals } = parse(args, { ...SCOPE_OPTIONS, ...SCAN_OPTIONS });
    const out = new Output(io, values.json === true);
    const e = agentEnv(io);
    const scope = scopeOf(io, values, e);
    const dir = scope.shared;
    const lock = await readScopeLock(scope);
    const names =
      positionals.length > 0
        ? positionals.map((name) => {
            const folder = installedFolder(lock, name);
            if (folder === undefined) throw new CliError(`${name} is not installed in ${dir}.`, EXIT.notFound);
            return folder;
          })
        : Object.keys(lock.skills).sort();
    if (names.length === 0) {
      out.result({ dir, updated: [] }, () => `No skills installed in ${dir}.`);
      return EXIT.ok;
    }
    const target = await resolveTarget(io, values.registry).catch((error: unknown) => {
      // Updating needs no default registry: every entry names its own.
      if (error instanceof CliError && error.exitCode === EXIT.usage) return null;
      throw error;
    });
    const { results, code, failures } = await each(out, names, async (name) => {
      const entry = (await readScopeLock(scope)).skills[name]!;
      // The API key goes only to the registry it belongs to.
      const client = target !== null && target.registry === entry.registry ? clientFor(target) : anonymousClient(entry.registry);
      // By id when known: a skill moved to another scope since is still found.
      const outcome = await installSkill({
        client,
        registry: entry.registry,
        skill: entry.skill_id ?? fullNameOf(name, entry),
        version: 'latest',
        scope,
        knownDirs: knownDirs(scope, e),
        targets: null,
        mode: 'update',
        scanPolicy: scanPolicy(values),
        onScan: scanNotes(out),
        io,
      });
      if (!out.json) {
        out.result(null, () =>
          outcome.action === 'unchanged'
            ? `${outcome.skill} ${outcome.version} is up to date.`
            : [
                `Updated ${outcome.skill} ${outcome.previous ?? '-'} → ${outcome.version}.`,
                ...(outcome.places.length > 1 ? outcome.places.map((p) => `  ${shown(scope, e, p.path)} (${p.mode})`) : []),
              ],
        );
      }
      return outcome;
    });
    if (out.json) out.result({ dir, updated: results, failed: failures.map(errorToJson) }, () => []);
    return code;
  },
};

/**
 * Removes one place of a skill: only a folder named by its slug in a skills folder of the scope, only the files the
 * lock file lists (and the folders they leave empty), and a link by unlinking it. Returns what was left, and why.
 */
async function removePlace(scope: Scope, dirs: Set<string>, slug: string, entry: InstalledSkill, place: Place): Promise<string[]> {
  const file = placePath(scope.base, place);
  if (!SLUG.test(slug) || path.basename(file) !== slug || !dirs.has(path.dirname(file))) {
    return [`${file} is not a skill's folder in a skills folder skill-registry knows, so it was not touched`];
  }
  if (place.mode === 'symlink') {
    const stats = await lstatOrNull(file);
    if (stats === null) return [];
    if (!stats.isSymbolicLink()) return [`${file} is not the link skill-registry made any more, so it was left as it is`];
    await unlink(file);
    return [];
  }
  return (await removeCopy(file, entry.files)).kept;
}

export const uninstall: Command = {
  name: 'uninstall',
  summary: 'remove installed skills from every place',
  help: `Usage: skill-registry uninstall SKILL... [--global | --dir DIR] [--json]

Removes each skill from every place the lock file records, and its entry. SKILL is the folder's name, or the
full name installed there (@acme/pdf-tools). Only what skill-registry installed is removed: the files the lock
file lists (a folder keeps files added to it since, and is reported), and links by unlinking them; nothing is
removed through a link.

${SCOPE_HELP}

${COMMON_HELP}`,
  async run(args, io) {
    const { values, positionals } = parse(args, SCOPE_OPTIONS);
    if (positionals.length === 0) throw usageError('Name at least one skill: skill-registry uninstall SKILL');
    const out = new Output(io, values.json === true);
    const e = agentEnv(io);
    const scope = scopeOf(io, values, e);
    const dir = scope.shared;
    const folderOf = (lock: LockFile, name: string): string => {
      const folder = installedFolder(lock, name);
      if (folder === undefined) throw new CliError(`${name} is not installed in ${dir} (not in ${LOCK_FILE}).`, EXIT.notFound);
      return folder;
    };
    const known = await readScopeLock(scope);
    for (const name of positionals) folderOf(known, name);
    const dirs = knownDirs(scope, e);
    const kept: string[] = [];
    const removed = await updateScopeLock(scope, async (lock) => {
      const folders = [...new Set(positionals.map((name) => folderOf(lock, name)))];
      for (const folder of folders) {
        const entry = lock.skills[folder]!;
        // Links first: none is left pointing at a copy already gone.
        const places = [...entry.places].sort((a, b) => Number(b.mode === 'symlink') - Number(a.mode === 'symlink'));
        for (const place of places) kept.push(...(await removePlace(scope, dirs, folder, entry, place)));
        // The lock file's skills are a plain JSON object, written back as it is.
        // eslint-disable-next-line @typescript-eslint/no-dynamic-delete
        delete lock.skills[folder];
      }
      return folders;
    });
    for (const line of kept) out.warn(line);
    out.result({ dir, removed }, () => removed.map((name) => `Removed ${name} from ${dir}.`));
    return EXIT.ok;
  },
};
