/**
 * Scanning files a caller already holds (a directory about to be packed, a dry run, the evaluation bench),
 * with the same rules and SKILL.md handling as inspectPackage: SKILL.md is the one at the root or in a single
 * top-level folder; its front matter is read as inspection reads it.
 */
import { isSkillMdCandidate } from '../collector.js';
import { parseSkillMd } from '../skill-md.js';
import { PackageError } from '../types.js';
import { PackageScanner, type SkillMdInfo } from './scanner.js';
import type { ScanReport } from './types.js';

export interface ScanInputFile {
  /** Path inside the package, `/`-separated. */
  path: string;
  bytes: Uint8Array;
}

/** Chunk size files are fed in, as archive readers would. */
const CHUNK = 64 * 1024;

export function scanFiles(files: Iterable<ScanInputFile>): ScanReport {
  const scanner = new PackageScanner();
  let skillMd: SkillMdInfo | null = null;
  let candidates = 0;
  for (const file of files) {
    const sink = scanner.file(file.path);
    for (let at = 0; at < file.bytes.length; at += CHUNK) sink.push(file.bytes.subarray(at, at + CHUNK));
    sink.end();
    if (isSkillMdCandidate(file.path) && candidates++ === 0) skillMd = readSkillMd(file);
  }
  return scanner.finish(candidates === 1 ? skillMd : null);
}

function readSkillMd(file: ScanInputFile): SkillMdInfo {
  try {
    return { path: file.path, frontMatter: parseSkillMd(file.bytes, file.path).skillMd };
  } catch (err) {
    if (!(err instanceof PackageError)) throw err;
    return { path: file.path, frontMatter: null, problem: err.detail };
  }
}
