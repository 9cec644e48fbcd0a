// What the benign modules share: assembling a package, and choosing where its SKILL.md sits.
import type { Rng } from '../prng.js';
import { packageFiles, type Sample, type SampleFile } from '../sample.js';

export interface BenignSpec {
  id: string;
  note: string;
  /** The skill's name: also its folder when the package keeps everything in one. */
  name: string;
  skillMd: string;
  files?: SampleFile[];
  /** null: at the root; a string: that folder; undefined: chosen at random (the skill's name). */
  folder?: string | null;
}

export function benignSample(r: Rng, spec: BenignSpec): Sample {
  const folder = spec.folder === undefined ? (r.chance(0.45) ? spec.name : null) : spec.folder;
  return { id: spec.id, label: 'benign', families: [], note: spec.note, files: packageFiles(spec.skillMd, spec.files ?? [], folder) };
}

/** A lower-case hyphenated name from words. */
export function slug(...words: string[]): string {
  return words
    .join('-')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

export function codeBlock(lang: string, code: string): string {
  return `\`\`\`${lang}\n${code.replace(/\n$/, '')}\n\`\`\``;
}

export function bullets(items: string[]): string {
  return items.map((i) => `- ${i}`).join('\n');
}

export function numbered(items: string[]): string {
  return items.map((i, n) => `${n + 1}. ${i}`).join('\n');
}

export function table(header: string[], rows: string[][]): string {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n');
}
