/**
 * Reading a skill folder's SKILL.md for publishing, with the registry's own parser, and repairing front matter that is
 * not YAML when the registry's repair applies (front-matter-fix.ts) and the user consents: with --fix-front-matter,
 * or by answering yes on a terminal. Without a terminal and without the flag, the repair is printed with how to apply
 * it, and nothing is written. Only the lines the repair names are rewritten; the rest of the file keeps its bytes.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { applyFrontMatterFix, type FrontMatterFix } from '@skill-registry/skill-package/front-matter-fix';
import { parseSkillMd } from '@skill-registry/skill-package/skill-md';
import { PackageError } from '@skill-registry/skill-package/types';
import { CliError, EXIT } from './exit-codes.js';
import type { Io } from './io.js';
import { packageFailure } from './local-package.js';
import { confirm, isTerminal } from './prompt.js';

export const FIX_FLAG = '--fix-front-matter';

export interface SkillMdRead {
  front: Record<string, unknown>;
  warnings: string[];
  /** The repair written to SKILL.md, or null when none was needed. */
  fixed: FrontMatterFix | null;
}

/** The repair, line by line, as the user is shown it. */
export function fixLines(fix: FrontMatterFix): string[] {
  return fix.changes.flatMap((c) => [`line ${c.line}: ${c.original}`, `     is now: ${c.corrected}`]);
}

function parse(bytes: Buffer): { front: Record<string, unknown>; warnings: string[] } {
  const parsed = parseSkillMd(bytes, 'SKILL.md');
  return { front: parsed.skillMd, warnings: parsed.warnings.map((w) => w.message) };
}

/**
 * Reads and checks DIR/SKILL.md. Front matter the registry would refuse but can repair is repaired in place when
 * `fixFlag` is set or the user says yes; otherwise the refusal lists the repair and how to apply it.
 */
export async function readSkillMd(dir: string, io: Io, fixFlag: boolean): Promise<SkillMdRead> {
  const file = path.join(dir, 'SKILL.md');
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new CliError(
        `${dir} has no SKILL.md; a skill folder starts with one (YAML front matter with name and description).`,
        EXIT.invalidPackage,
      );
    }
    throw error;
  }
  let refusal: PackageError;
  try {
    return { ...parse(bytes), fixed: null };
  } catch (error) {
    if (!(error instanceof PackageError)) throw error;
    refusal = error;
  }
  const fix = refusal.problems.find((p) => p.fix !== undefined)?.fix;
  if (fix === undefined) throw packageFailure(refusal);
  const shown = fixLines(fix);
  let consent = fixFlag;
  if (!consent && isTerminal(io)) {
    io.stderr.write(
      `${refusal.detail}\nThe registry would refuse it. Quoting the value fixes it:\n${shown.map((l) => `  ${l}\n`).join('')}`,
    );
    consent = await confirm(io, `Write this fix to ${file}?`);
    if (!consent) throw new CliError(`${file} is left as it is; the registry refuses its front matter.`, EXIT.invalidPackage, shown);
  }
  if (!consent) {
    throw new CliError(refusal.detail, EXIT.invalidPackage, [
      'Quoting the value fixes it:',
      ...shown.map((l) => `  ${l}`),
      `Run the command again with ${FIX_FLAG} to write this fix to ${file}, or edit the file.`,
    ]);
  }
  const repaired = applyFrontMatterFix(bytes.toString('utf8'), fix);
  if (repaired === null) throw new CliError(`${file} changed while it was read; nothing was written.`, EXIT.failure);
  const after = Buffer.from(repaired, 'utf8');
  // Proved before anything is written: the repaired file is accepted.
  const read = parse(after);
  await writeFile(file, after);
  io.stderr.write(`Fixed the front matter of ${file}:\n${shown.map((l) => `  ${l}\n`).join('')}`);
  return { ...read, fixed: fix };
}
