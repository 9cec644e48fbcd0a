import { agentEnv } from '../agents.js';
import { COMMON_HELP, parse, type Command } from '../command.js';
import { CliError, EXIT, exitCodeFor } from '../exit-codes.js';
import { installedFolder, LOCK_FILE, type InstalledSkill } from '../lockfile.js';
import { errorToJson, Output } from '../output.js';
import { anonymousClient, clientFor, resolveTarget, type Target } from '../registry.js';
import { readScopeLock } from '../scope-lock.js';
import { checkLocal, checkRegistry, type SkillCheck } from '../verifier.js';
import { SCOPE_HELP, SCOPE_OPTIONS, scopeOf, shown } from './install.js';

interface Checked extends SkillCheck {
  /** A check that could not run (the registry unreachable, …); null when every check ran. */
  error: Record<string, unknown> | null;
}

export const verify: Command = {
  name: 'verify',
  summary: 'check installed skills against the lock file and the registry',
  help: `Usage: skill-registry verify [SKILL...] [--offline] [--global | --dir DIR] [--json]

Checks each installed skill (every one in the lock file unless some are named) in every place it is installed:
- against the lock file: each file's sha256 (changed), files missing, files added, a copy replaced by something
  else, and links that are gone or point elsewhere than the shared copy;
- against the registry it came from (not with --offline): the installed version is still served (not deleted),
  not quarantined, with the same package sha256 (not uploaded again) and the same files.

Prints each difference, and exits 11 when there is any, 0 when everything matches. A check that cannot run (the
registry unreachable) ends with that failure's exit code when nothing differs.

  --offline        check against the lock file only; nothing is asked of the registry
${SCOPE_HELP}

${COMMON_HELP}`,
  async run(args, io) {
    const { values, positionals } = parse(args, { ...SCOPE_OPTIONS, offline: { type: 'boolean' } });
    const out = new Output(io, values.json === true);
    const e = agentEnv(io);
    const scope = scopeOf(io, values, e);
    const dir = scope.shared;
    const lock = await readScopeLock(scope);
    const names =
      positionals.length > 0
        ? positionals.map((name) => {
            const folder = installedFolder(lock, name);
            if (folder === undefined) throw new CliError(`${name} is not installed in ${dir} (not in ${LOCK_FILE}).`, EXIT.notFound);
            return folder;
          })
        : Object.keys(lock.skills).sort();
    const offline = values.offline === true;
    const target: Target | null = offline
      ? null
      : await resolveTarget(io, values.registry).catch((error: unknown) => {
          // Every entry names its own registry.
          if (error instanceof CliError && error.exitCode === EXIT.usage) return null;
          throw error;
        });
    const clientOf = (entry: InstalledSkill) =>
      target !== null && target.registry === entry.registry ? clientFor(target) : anonymousClient(entry.registry);

    const results: Checked[] = [];
    let failure: number = EXIT.ok;
    for (const slug of [...new Set(names)]) {
      const entry = lock.skills[slug]!;
      const local = await checkLocal(scope, slug, entry);
      const result: Checked = {
        skill: slug,
        full_name: entry.full_name ?? slug,
        version: entry.version,
        places: entry.places.length,
        files: entry.files.length,
        differences: local.differences,
        notes: local.notes,
        error: null,
      };
      if (!offline) {
        try {
          result.differences.push(...(await checkRegistry(clientOf(entry), slug, entry)));
        } catch (error) {
          result.error = errorToJson(error);
          if (failure === EXIT.ok) failure = exitCodeFor(error);
          if (!out.json) out.error(error);
        }
      }
      results.push(result);
    }
    const differing = results.filter((r) => r.differences.length > 0);
    const ok = differing.length === 0 && failure === EXIT.ok;
    out.result({ dir, scope: scope.kind, offline, ok, skills: results }, () => {
      if (results.length === 0) return `No skills installed in ${dir}.`;
      const lines: string[] = [];
      for (const r of results) {
        const name = r.full_name === r.skill ? r.skill : `${r.full_name} (${r.skill}/)`;
        const where = `${r.places} place${r.places === 1 ? '' : 's'}, ${r.files} file${r.files === 1 ? '' : 's'}`;
        if (r.differences.length === 0)
          lines.push(`${name} ${r.version}: ${r.error === null ? 'ok' : 'not checked against the registry'} (${where})`);
        else lines.push(`${name} ${r.version}: ${r.differences.length} difference${r.differences.length === 1 ? '' : 's'} (${where})`);
        for (const d of r.differences)
          lines.push(`  ${d.kind.padEnd(15)} ${d.path === null ? 'registry' : shown(scope, e, d.path)}: ${d.detail}`);
        for (const note of r.notes) lines.push(`  note: ${note}`);
      }
      const count = differing.reduce((n, r) => n + r.differences.length, 0);
      lines.push(
        differing.length === 0
          ? `${failure === EXIT.ok ? 'Everything matches' : 'Nothing differs in what could be checked'}: ${results.length} skill${results.length === 1 ? '' : 's'}, ${offline ? 'against the lock file' : 'against the lock file and the registry'}.`
          : `${count} difference${count === 1 ? '' : 's'} in ${differing.length} of ${results.length} skill${results.length === 1 ? '' : 's'}.`,
      );
      return lines;
    });
    if (differing.length > 0) return EXIT.modified;
    return ok ? EXIT.ok : failure;
  },
};
