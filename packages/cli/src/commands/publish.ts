import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ProblemError, type RegistryClient, type ScanSummary, type Skill, type Version } from '@skill-registry/client';
import { checkChangelog, checkVersion, RuleError, slugProblem } from '@skill-registry/skill-package/rules';
import { COMMON_HELP, parse, type Command } from '../command.js';
import { CliError, EXIT, usageError } from '../exit-codes.js';
import { inspectLocalArchive } from '../local-package.js';
import { formatBytes, Output } from '../output.js';
import { collectFiles, IGNORE_FILE, packZip } from '../pack.js';
import { progressBar } from '../progress.js';
import { clientFor, resolveTarget } from '../registry.js';
import { findingsByFile, localScanView, summaryOf, verdictText, type ScanView } from '../scan-report.js';
import { FIX_FLAG, readSkillMd } from '../skill-md-fix.js';
import type { Io } from '../io.js';

const SOURCE_TYPES = ['original', 'github', 'external'] as const;
const isSourceType = (value: string): value is (typeof SOURCE_TYPES)[number] => (SOURCE_TYPES as readonly string[]).includes(value);

/** A refusal by a rule the registry shares (version, changelog) as a usage error. */
function ruleFailure(error: unknown): unknown {
  if (error instanceof RuleError)
    return new CliError(
      error.detail,
      EXIT.usage,
      error.errors.map((e) => `${e.field}: ${e.message}`),
    );
  return error;
}

function versionFrom(flag: string | undefined, front: Record<string, unknown>): string {
  const metadata = front.metadata;
  const declared =
    typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata)
      ? (metadata as Record<string, unknown>).version
      : undefined;
  const version = flag ?? (typeof declared === 'string' ? declared : undefined);
  if (version === undefined) throw usageError('Give the version with --version (or as metadata.version in SKILL.md).');
  try {
    return checkVersion(version);
  } catch (error) {
    throw ruleFailure(error);
  }
}

async function changelogFrom(
  values: { changelog?: string | undefined; 'changelog-file'?: string | undefined },
  io: Io,
): Promise<string | undefined> {
  if (values.changelog !== undefined && values['changelog-file'] !== undefined)
    throw usageError('Give either --changelog or --changelog-file, not both.');
  const text =
    values['changelog-file'] !== undefined ? await readFile(path.resolve(io.cwd, values['changelog-file']), 'utf8') : values.changelog;
  try {
    return checkChangelog(text) ?? undefined;
  } catch (error) {
    throw ruleFailure(error);
  }
}

/** A handle as the registry allows it: a letter or digit, then letters, digits, `_` and `-`. */
const HANDLE = /^[a-z0-9][a-z0-9_-]*$/i;

/**
 * `--scope acme` (or `@acme`) and `--slug pdf-tools`, or `--slug @acme/pdf-tools` alone: the scope (none for an
 * unscoped skill) and the slug (none: the SKILL.md name).
 */
export function scopeAndSlug(
  scopeFlag: string | undefined,
  slugFlag: string | undefined,
): { scope: string | undefined; slug: string | undefined } {
  let scope = scopeFlag?.replace(/^@/, '');
  let slug = slugFlag;
  if (slugFlag?.startsWith('@')) {
    const at = slugFlag.indexOf('/');
    const fromSlug = at === -1 ? '' : slugFlag.slice(1, at);
    if (fromSlug === '') throw usageError(`--slug ${JSON.stringify(slugFlag)} is not SLUG or @SCOPE/SLUG.`);
    if (scope !== undefined && scope.toLowerCase() !== fromSlug.toLowerCase())
      throw usageError(`--scope ${scopeFlag} and --slug ${slugFlag} name different scopes; give one.`);
    scope = fromSlug;
    slug = slugFlag.slice(at + 1);
  }
  if (scope !== undefined && !HANDLE.test(scope))
    throw usageError(`--scope ${JSON.stringify(scopeFlag ?? scope)} is not a username or organisation handle (letters, digits, _ and -).`);
  return { scope: scope?.toLowerCase(), slug };
}

/** The skill as the caller sees it, or null when it does not exist (or is not visible to the caller). */
async function existingSkill(client: RegistryClient, slug: string): Promise<Skill | null> {
  try {
    return await client.skills.get(slug);
  } catch (error) {
    if (error instanceof ProblemError && error.status === 404) return null;
    throw error;
  }
}

/** A clear warning for a verdict that keeps installers away: suspicious ones need a flag, malicious ones are quarantined. */
function verdictWarning(scan: ScanSummary, uploaded: boolean): string | null {
  if (scan?.verdict === 'malicious') {
    return uploaded
      ? `The package scanner judged this version MALICIOUS: it is quarantined. Only you and administrators can download it, it is never the latest version, and \`skill-registry install\` refuses it. Fix the findings and publish a new version (or ask an administrator to review it).`
      : 'The package scanner judges this package MALICIOUS: once uploaded, the version is quarantined (only you and administrators can download it, it is never the latest, and `skill-registry install` refuses it).';
  }
  if (scan?.verdict === 'suspicious') {
    return uploaded
      ? 'The package scanner judged this version SUSPICIOUS: `skill-registry install` refuses it unless --allow-suspicious is given.'
      : 'The package scanner judges this package SUSPICIOUS: once uploaded, `skill-registry install` refuses it unless --allow-suspicious is given.';
  }
  return null;
}

/**
 * The registry's findings for an uploaded version: the local scan's when it ran the same rules on the same bytes,
 * else the registry's report; null when neither is at hand.
 */
async function uploadedFindings(client: RegistryClient, slug: string, version: Version, local: ScanView): Promise<ScanView | null> {
  if (version.scan === null || version.scan.verdict === 'clean') return null;
  if (version.scan.rules_version === local.rules_version) return local;
  try {
    return await client.versions.scan(slug, version.version);
  } catch {
    return null;
  }
}

function statusNote(skill: Skill, scan: ScanSummary): string {
  if (scan?.verdict === 'malicious') return 'The version is quarantined: nobody but you and administrators can install it.';
  if (skill.status === 'draft') return 'The skill is a draft: an administrator publishes it before others can find and install it.';
  if (skill.status === 'deprecated') return 'The skill is deprecated: it stays hidden until an administrator republishes it.';
  return 'The skill is published: anyone can install this version.';
}

export const publish: Command = {
  name: 'publish',
  summary: 'publish a skill folder (a new skill or a new version)',
  help: `Usage: skill-registry publish [DIR] [options]

Reads DIR/SKILL.md (DIR defaults to the current folder) and checks it, packs DIR into a deterministic zip
(skipping .git, node_modules, .env, .env.* and what ${IGNORE_FILE} lists, in gitignore syntax), checks the zip
with the registry's rules, then uploads it: as a new version when the skill exists, else as a new skill with
its first version (a draft until an administrator publishes it). It prints the verdict of the registry's package
scanner (clean, notice, suspicious, malicious) and warns when the version is suspicious (install refuses it
without --allow-suspicious) or malicious (the version is quarantined: only its owner and administrators can
download it, and install refuses it).

  --version X           the version (default: metadata.version in SKILL.md)
  --changelog TEXT      what changed in this version
  --changelog-file F    the changelog, read from a file
  --slug SLUG           the skill's slug (default: the SKILL.md name); @SCOPE/SLUG gives the scope too
  --scope HANDLE        the skill is @HANDLE/SLUG: your username, or an organisation where you are an owner,
                        admin or publisher (it then owns the skill); created there when it does not exist
  --dry-run             check everything and upload nothing: scan the package here with the registry's scanner
                        and print its verdict and findings by file, then ask POST /v1/packages/validate
  ${FIX_FLAG}    when SKILL.md's front matter is not YAML only because a value needs quoting
                        (description: Use when: …), write the registry's fix to SKILL.md without asking
                        (on a terminal publish asks first; otherwise it prints the fix and exits 8)
For a new skill:
  --name NAME           display name (default: the SKILL.md name)
  --category NAME       category
  --tags a,b            tags
  --source-type TYPE    original, github or external
  --source-url URL      where the skill's source lives

${COMMON_HELP}`,
  async run(args, io) {
    const { values, positionals } = parse(args, {
      version: { type: 'string' },
      changelog: { type: 'string' },
      'changelog-file': { type: 'string' },
      slug: { type: 'string' },
      scope: { type: 'string' },
      name: { type: 'string' },
      category: { type: 'string' },
      tags: { type: 'string' },
      'source-type': { type: 'string' },
      'source-url': { type: 'string' },
      'dry-run': { type: 'boolean' },
      'fix-front-matter': { type: 'boolean' },
    });
    if (positionals.length > 1) throw usageError(`publish takes one folder (got ${positionals.join(' ')}).`);
    const out = new Output(io, values.json === true);
    const dir = path.resolve(io.cwd, positionals[0] ?? '.');
    if (
      !(await stat(dir).then(
        (s) => s.isDirectory(),
        () => false,
      ))
    )
      throw usageError(`${dir} is not a folder.`);
    const sourceType = values['source-type'];
    if (sourceType !== undefined && !isSourceType(sourceType)) {
      throw usageError(`--source-type must be one of ${SOURCE_TYPES.join(', ')}.`);
    }

    // Local checks first: they need no network and no credentials.
    const skillMd = await readSkillMd(dir, io, values['fix-front-matter'] === true);
    for (const warning of skillMd.warnings) out.warn(warning);
    const version = versionFrom(values.version, skillMd.front);
    const changelog = await changelogFrom(values, io);
    const { scope, slug: givenSlug } = scopeAndSlug(values.scope, values.slug);
    const slug = givenSlug ?? String(skillMd.front.name);
    const problem = slugProblem(slug);
    if (problem !== null) {
      throw usageError(
        `The slug ${JSON.stringify(slug)}${givenSlug === undefined ? ' (the SKILL.md name)' : ''} ${problem}; give one with --slug.`,
      );
    }
    // What the registry calls the skill: `@acme/pdf-tools` in a scope.
    const ref = scope === undefined ? slug : `@${scope}/${slug}`;
    const { files, skipped } = await collectFiles(dir);
    if (!files.some((f) => f.path === 'SKILL.md'))
      throw new CliError(`SKILL.md is excluded by ${IGNORE_FILE}; a package must hold it.`, EXIT.invalidPackage);

    const work = await mkdtemp(path.join(tmpdir(), 'skill-registry-'));
    try {
      const archive = path.join(work, `${slug}-${version}.zip`);
      const packed = await packZip(files, archive);
      const { inspection } = await inspectLocalArchive(archive, 'The package is refused: ');
      for (const warning of inspection.warnings) if (!skillMd.warnings.includes(warning.message)) out.warn(warning.message);
      const localScan = localScanView(inspection.scan);

      const target = await resolveTarget(io, values.registry);
      const client = clientFor(target, { authenticated: values['dry-run'] !== true });
      const summary = {
        slug,
        scope: scope ?? null,
        full_name: ref,
        version,
        size: packed.size,
        sha256: packed.sha256,
        files: files.map((f) => ({ path: f.path, size: f.size })),
        skipped,
      };

      if (values['dry-run']) {
        // The findings come first, before the package leaves this machine for the validation.
        const localSummary = summaryOf(localScan);
        if (!out.json) {
          out.result(null, () => [
            `Scan of ${ref} ${version} (on this machine): ${verdictText(localSummary)}`,
            ...findingsByFile(localScan).map((line) => `  ${line}`),
          ]);
        }
        const warning = verdictWarning(localSummary, false);
        if (warning !== null) out.warn(warning);
        const validation = await client.versions.validate({ path: archive });
        const existing = target.apiKey ? await existingSkill(client, ref) : null;
        const action = existing === null ? 'create' : 'upload';
        out.result({ ...summary, action, scan: localScan, validation }, () => [
          `${ref} ${version}: ${files.length} files, ${formatBytes(packed.size)} zip, sha256 ${packed.sha256}`,
          ...files.map((f) => `  ${f.path} (${formatBytes(f.size)})`),
          ...(skipped.length > 0 ? [`skipped: ${skipped.join(', ')}`] : []),
          ...validation.warnings.map((w) => `warning: ${w.message}`),
          validation.valid
            ? `The registry accepts the package. Without --dry-run this ${action === 'create' ? `creates the skill ${ref}` : `uploads version ${version} of ${ref}`}.`
            : 'The registry refuses the package:',
          ...validation.errors.map((e) => `  ${e.field}: ${e.message}${e.entry !== undefined ? ` (${e.entry})` : ''}`),
        ]);
        return validation.valid ? EXIT.ok : EXIT.invalidPackage;
      }

      const existing = await existingSkill(client, ref);
      const progress = progressBar(io, `Uploading ${ref}@${version}`);
      let skill: Skill;
      let uploaded: Version;
      try {
        const options = { onProgress: (sent: number, total: number | null) => progress.update(sent, total) };
        if (existing !== null) {
          const ignored = (['name', 'category', 'tags', 'source-type', 'source-url'] as const).filter((o) => values[o] !== undefined);
          if (ignored.length > 0)
            out.warn(`${ignored.map((o) => `--${o}`).join(', ')} apply to a new skill; ${ref} exists and keeps its metadata.`);
          skill = existing;
          uploaded = await client.versions.upload(ref, { version, changelog }, { path: archive }, options);
        } else {
          const created = await client.versions.createSkill(
            {
              name: values.name ?? String(skillMd.front.name),
              slug,
              scope,
              version,
              changelog,
              category: values.category,
              tags: values.tags
                ?.split(',')
                .map((t) => t.trim())
                .filter(Boolean),
              source_type: sourceType,
              source_url: values['source-url'],
            },
            { path: archive },
            options,
          );
          skill = created.skill;
          uploaded = created.version;
        }
      } finally {
        progress.finish();
      }
      for (const warning of uploaded.warnings)
        if (!inspection.warnings.some((w) => w.message === warning.message)) out.warn(warning.message);
      const warning = verdictWarning(uploaded.scan, true);
      if (warning !== null) out.warn(warning);
      const findings = out.json ? null : await uploadedFindings(client, skill.full_name, uploaded, localScan);
      out.result({ created: existing === null, skill, version: uploaded }, () => [
        `${existing === null ? 'Created' : 'Published'} ${skill.full_name} ${uploaded.version} (${formatBytes(uploaded.size)}, ${uploaded.file_count} files, sha256 ${uploaded.sha256}); status: ${skill.status}.`,
        `Scan: ${verdictText(uploaded.scan)}`,
        ...(findings !== null ? findingsByFile(findings).map((line) => `  ${line}`) : []),
        statusNote(skill, uploaded.scan),
      ]);
      return EXIT.ok;
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  },
};
