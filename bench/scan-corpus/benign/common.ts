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
  /** Whether a closing section of house rules may be appended (English text; off for other languages). */
  closing?: boolean;
}

const CLOSING_HEADINGS = ['## Notes', '## Ground rules', '## Before you finish', '## Limits', '## Good practice'];
const CLOSING_LINES = [
  'Say what you changed and what you left alone.',
  'Ask before installing anything new.',
  'Works on Linux and macOS; on Windows, use WSL or adapt the commands.',
  'If the input is larger than a few megabytes, work on a sample first.',
  'Prefer the project’s own scripts over ad-hoc commands.',
  'Do not commit on the user’s behalf unless asked.',
  'Quote file paths relative to the repository root.',
  'When unsure which option the user wants, offer the two most likely and ask.',
  'Leave a short summary at the end, in bullet points.',
  'Stop at the first error and show it in full.',
  'Do not paste secrets, tokens or personal data into the conversation.',
  'Keep the original files; write results next to them.',
  'Time-box exploratory work to a few minutes and report back.',
  'Check the tool versions first if a command behaves unexpectedly.',
];

/** Sometimes a closing section of house rules, so that packages built from one template still differ. */
function closing(r: Rng, skillMd: string): string {
  if (skillMd.includes('\r\n') || !r.chance(0.55)) return skillMd;
  const lines = r.some(CLOSING_LINES, r.int(1, 3)).map((l) => `- ${l}`);
  return `${skillMd.replace(/\n*$/, '\n')}\n${r.pick(CLOSING_HEADINGS)}\n\n${lines.join('\n')}\n`;
}

export function benignSample(r: Rng, spec: BenignSpec): Sample {
  const folder = spec.folder === undefined ? (r.chance(0.45) ? spec.name : null) : spec.folder;
  const skillMd = spec.closing === false ? spec.skillMd : closing(r, spec.skillMd);
  return { id: spec.id, label: 'benign', families: [], note: spec.note, files: packageFiles(skillMd, spec.files ?? [], folder) };
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
