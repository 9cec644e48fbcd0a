/**
 * Scanning files a caller already holds (a directory about to be packed, a dry run, the evaluation bench),
 * with the same rules and SKILL.md handling as inspectPackage: SKILL.md is the one at the root or in a single
 * top-level folder; its front matter is read as inspection reads it.
 */
import { isSkillMdCandidate } from '../collector.js';
import { parseSkillMd } from '../skill-md.js';
import { openNestedArchives } from '../nested.js';
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

/** Scans the files, and the archives among them (nested.ts), as an upload of them would be scanned. */
export async function scanFiles(files: Iterable<ScanInputFile>): Promise<ScanReport> {
  const scanner = new PackageScanner();
  const skillMd = feedFiles(scanner, files);
  await openNestedArchives(scanner);
  return scanner.finish(skillMd);
}

/**
 * Feeds the files to `scanner` in chunks, as archive readers would; returns SKILL.md as `finish` takes it. Archives
 * among the files are left for the caller to open (scanFiles does).
 */
export function feedFiles(scanner: PackageScanner, files: Iterable<ScanInputFile>): SkillMdInfo | null {
  let skillMd: SkillMdInfo | null = null;
  let candidates = 0;
  for (const file of files) {
    const sink = scanner.file(file.path);
    for (let at = 0; at < file.bytes.length; at += CHUNK) sink.push(file.bytes.subarray(at, at + CHUNK));
    sink.end();
    if (isSkillMdCandidate(file.path) && candidates++ === 0) skillMd = readSkillMd(file);
  }
  return candidates === 1 ? skillMd : null;
}

function readSkillMd(file: ScanInputFile): SkillMdInfo {
  try {
    return { path: file.path, frontMatter: parseSkillMd(file.bytes, file.path).skillMd };
  } catch (err) {
    if (!(err instanceof PackageError)) throw err;
    return { path: file.path, frontMatter: null, problem: err.detail };
  }
}
