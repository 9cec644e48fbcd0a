/**
 * The registry's own package rules, applied on this machine: the inspector that checks uploads (paths, sizes,
 * ratios, SKILL.md) reads local archives through the same RandomAccessSource interface.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { inspectPackage } from '@skill-registry/skill-package/inspect';
import { PackageError, type Inspection, type RandomAccessSource } from '@skill-registry/skill-package/types';
import { CliError, EXIT } from './exit-codes.js';

export function fileSource(file: string, size: number): RandomAccessSource {
  return {
    size,
    read: (range) => createReadStream(file, range ? { start: range.start, end: range.end } : {}),
  };
}

/** A refused package as a command-line failure (exit code 8) listing each problem. */
export function packageFailure(error: PackageError, prefix = ''): CliError {
  return new CliError(
    `${prefix}${error.detail}`,
    EXIT.invalidPackage,
    error.problems.map((p) => `${p.field}: ${p.message}${p.entry !== undefined ? ` (${p.entry})` : ''}`),
  );
}

/** Inspects an archive on disk exactly as the registry inspects an upload. */
export async function inspectLocalArchive(file: string, prefix = ''): Promise<{ inspection: Inspection; source: RandomAccessSource }> {
  const source = fileSource(file, (await stat(file)).size);
  try {
    return { inspection: await inspectPackage(source), source };
  } catch (error) {
    if (error instanceof PackageError) throw packageFailure(error, prefix);
    throw error;
  }
}
