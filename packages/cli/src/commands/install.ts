import { lstat, readdir, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import type { ScanSummary } from '@skill-registry/client';
import { COMMON_HELP, parse, type Command } from '../command.js';
import { CliError, EXIT, exitCodeFor, usageError } from '../exit-codes.js';
import { installSkill, type InstallOutcome } from '../installer.js';
import type { Io } from '../io.js';
import { fullNameOf, installedFolder, LOCK_FILE, readLock, updateLock } from '../lockfile.js';
import { errorToJson, formatTime, Output, table } from '../output.js';
import { anonymousClient, clientFor, resolveTarget } from '../registry.js';
import type { ScanPolicy } from '../scan-policy.js';
import { verdictText } from '../scan-report.js';

const DIR_OPTIONS = {
  dir: { type: 'string' },
  global: { type: 'boolean' },
} as const;

const DIR_HELP = `  --dir DIR        the skills directory (default: ./.claude/skills)
  --global         the user's skills directory, ~/.claude/skills`;

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

/** `--dir`, else `--global` (~/.claude/skills), else ./.claude/skills: the folders agents load skills from. */
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

function verdictOf(outcome: InstallOutcome): string {
  if (outcome.scan !== null) return outcome.scan.verdict;
  return outcome.local_scan !== null ? `${outcome.local_scan.verdict}, on this machine` : 'not scanned';
}

function describe(outcome: InstallOutcome): string {
  switch (outcome.action) {
    case 'unchanged':
      return `${outcome.skill} ${outcome.version} is already installed in ${outcome.path}.`;
    case 'replaced':
      return `Replaced ${outcome.skill}${outcome.previous ? ` ${outcome.previous}` : ''} with ${outcome.version} in ${outcome.path} (${outcome.files.length} files; scan: ${verdictOf(outcome)}).`;
    case 'installed':
      return `Installed ${outcome.skill} ${outcome.version} in ${outcome.path} (${outcome.files.length} files; scan: ${verdictOf(outcome)}).`;
  }
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

export const install: Command = {
  name: 'install',
  summary: 'install skills into an agent skills directory',
  help: `Usage: skill-registry install SKILL[@VERSION]... [options]

Downloads each skill's package (the latest version unless @VERSION names one), checks its sha256 and its
contents with the registry's own rules, and extracts it into DIR/<slug>/. SKILL is a slug, or @SCOPE/SLUG for
a skill in a user's or an organisation's scope, which is installed into DIR/<slug>/ as well (the folder is
named after the skill's name): a skill whose folder another installed skill already uses is refused (exit 5;
uninstall the other first, or use another --dir). What was installed is recorded in DIR/${LOCK_FILE}, with
each skill's full name, for list, update and uninstall.

${SCAN_POLICY_HELP}

${DIR_HELP}
  --force          replace a different installed version (or a folder not installed by this command)

${SCAN_HELP}

${COMMON_HELP}`,
  async run(args, io) {
    const { values, positionals } = parse(args, { ...DIR_OPTIONS, ...SCAN_OPTIONS, force: { type: 'boolean' } });
    if (positionals.length === 0) throw usageError('Name at least one skill: skill-registry install SKILL[@VERSION]');
    const specs = positionals.map(parseSpec);
    const out = new Output(io, values.json === true);
    const dir = skillsDir(io, values);
    const target = await resolveTarget(io, values.registry);
    const client = clientFor(target);
    const { results, code, failures } = await each(out, specs, async (spec) => {
      const outcome = await installSkill({
        client,
        registry: target.registry,
        skill: spec.skill,
        version: spec.version,
        dir,
        mode: values.force ? 'force' : 'install',
        scanPolicy: scanPolicy(values),
        onScan: scanNotes(out),
        io,
      });
      if (!out.json) out.result(null, () => describe(outcome));
      return outcome;
    });
    if (out.json) out.result({ dir, installed: results, failed: failures.map(errorToJson) }, () => []);
    return code;
  },
};

interface ListedSkill {
  /** The folder's name. */
  skill: string;
  /** The installed skill's full name (`@acme/pdf-tools`); the folder's name for an untracked folder. */
  full_name: string;
  version: string | null;
  registry: string | null;
  installed_at: string | null;
  state: 'installed' | 'missing' | 'untracked';
  path: string;
}

async function listed(dir: string): Promise<ListedSkill[]> {
  const lock = await readLock(dir);
  const out: ListedSkill[] = [];
  for (const [slug, entry] of Object.entries(lock.skills)) {
    const present = await lstat(path.join(dir, slug)).then(
      (s) => s.isDirectory(),
      () => false,
    );
    out.push({
      skill: slug,
      full_name: fullNameOf(slug, entry),
      version: entry.version,
      registry: entry.registry,
      installed_at: entry.installed_at,
      state: present ? 'installed' : 'missing',
      path: path.join(dir, slug),
    });
  }
  const names = await readdir(dir, { withFileTypes: true }).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  });
  for (const entry of names) {
    if (entry.isDirectory() && !entry.name.startsWith('.') && !Object.hasOwn(lock.skills, entry.name)) {
      out.push({
        skill: entry.name,
        full_name: entry.name,
        version: null,
        registry: null,
        installed_at: null,
        state: 'untracked',
        path: path.join(dir, entry.name),
      });
    }
  }
  return out.sort((a, b) => (a.skill < b.skill ? -1 : a.skill > b.skill ? 1 : 0));
}

export const list: Command = {
  name: 'list',
  summary: 'list the skills installed in a skills directory',
  help: `Usage: skill-registry list [--dir DIR | --global] [--json]

Lists what DIR/${LOCK_FILE} records, and whether each folder is still there; folders the lock file does not
know are listed as untracked.

${DIR_HELP}

${COMMON_HELP}`,
  async run(args, io) {
    const { values, positionals } = parse(args, DIR_OPTIONS);
    if (positionals.length > 0) throw usageError(`list takes no arguments (got ${positionals.join(' ')}).`);
    const out = new Output(io, values.json === true);
    const dir = skillsDir(io, values);
    const skills = await listed(dir);
    out.result({ dir, skills }, () =>
      skills.length === 0
        ? `No skills installed in ${dir}.`
        : [
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
          ],
    );
    return EXIT.ok;
  },
};

export const update: Command = {
  name: 'update',
  summary: 'update installed skills to their latest versions',
  help: `Usage: skill-registry update [SKILL...] [--dir DIR | --global] [--json]

Installs the latest version of each installed skill (every skill in DIR/${LOCK_FILE} unless some are named,
by folder or by full name such as @acme/pdf-tools) from the registry it was installed from, replacing the
installed version.

${SCAN_POLICY_HELP}

${DIR_HELP}

${SCAN_HELP}

${COMMON_HELP}`,
  async run(args, io) {
    const { values, positionals } = parse(args, { ...DIR_OPTIONS, ...SCAN_OPTIONS });
    const out = new Output(io, values.json === true);
    const dir = skillsDir(io, values);
    const lock = await readLock(dir);
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
      const entry = (await readLock(dir)).skills[name]!;
      // The API key goes only to the registry it belongs to.
      const client = target !== null && target.registry === entry.registry ? clientFor(target) : anonymousClient(entry.registry);
      // By id when known: a skill moved to another scope since is still found.
      const outcome = await installSkill({
        client,
        registry: entry.registry,
        skill: entry.skill_id ?? fullNameOf(name, entry),
        version: 'latest',
        dir,
        mode: 'update',
        scanPolicy: scanPolicy(values),
        onScan: scanNotes(out),
        io,
      });
      if (!out.json) {
        out.result(null, () =>
          outcome.action === 'unchanged'
            ? `${outcome.skill} ${outcome.version} is up to date.`
            : `Updated ${outcome.skill} ${outcome.previous ?? '-'} → ${outcome.version}.`,
        );
      }
      return outcome;
    });
    if (out.json) out.result({ dir, updated: results, failed: failures.map(errorToJson) }, () => []);
    return code;
  },
};

export const uninstall: Command = {
  name: 'uninstall',
  summary: 'remove installed skills',
  help: `Usage: skill-registry uninstall SKILL... [--dir DIR | --global] [--json]

Removes each skill's folder and its entry in DIR/${LOCK_FILE}. SKILL is the folder's name, or the full name
installed there (@acme/pdf-tools).

${DIR_HELP}

${COMMON_HELP}`,
  async run(args, io) {
    const { values, positionals } = parse(args, DIR_OPTIONS);
    if (positionals.length === 0) throw usageError('Name at least one skill: skill-registry uninstall SKILL');
    const out = new Output(io, values.json === true);
    const dir = skillsDir(io, values);
    const folderOf = (lock: Awaited<ReturnType<typeof readLock>>, name: string): string => {
      const folder = installedFolder(lock, name);
      if (folder === undefined) throw new CliError(`${name} is not installed in ${dir} (not in ${LOCK_FILE}).`, EXIT.notFound);
      return folder;
    };
    const known = await readLock(dir);
    for (const name of positionals) folderOf(known, name);
    const removed = await updateLock(dir, async (lock) => {
      const folders = [...new Set(positionals.map((name) => folderOf(lock, name)))];
      for (const folder of folders) {
        await rm(path.join(dir, folder), { recursive: true, force: true });
        // The lock file's skills are a plain JSON object, written back as it is.
        // eslint-disable-next-line @typescript-eslint/no-dynamic-delete
        delete lock.skills[folder];
      }
      return folders;
    });
    out.result({ dir, removed }, () => removed.map((name) => `Removed ${name} from ${dir}.`));
    return EXIT.ok;
  },
};
