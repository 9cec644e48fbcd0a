// The shape of one labelled package, and how a package's files are laid out and its SKILL.md written.
import type { RuleFamily } from '@skill-registry/skill-package/scan/types';
import type { Rng } from './prng.js';

export interface SampleFile {
  path: string;
  content: string | Uint8Array;
}

export interface Sample {
  /** Stable across runs, e.g. `mal-hidden-bidi-03`, `ben-docs-curl-17`. */
  id: string;
  label: 'malicious' | 'benign';
  /** For a malicious sample, the families a scanner should flag it under; empty for a benign one. */
  families: RuleFamily[];
  /** One line: what the sample is, and for a disguised variant, the disguise. */
  note: string;
  /** Paths inside the package; exactly one SKILL.md, at the root or inside one top-level folder. */
  files: SampleFile[];
  /** What the sample does, for sets scored per behaviour (bench/scan-heldout): e.g. `env-exfil`, `benign-lookalike`. */
  behaviour?: string;
}

/** The families that signal harm: every malicious sample is labelled with at least one of them. */
export const HARM_FAMILIES = [
  'hidden-content',
  'agent-manipulation',
  'dangerous-command',
  'secret',
  'executable',
] as const satisfies readonly RuleFamily[];

export function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

const PLAIN_SCALAR = /^[A-Za-z][^:#"'\n[\]{}&*!|>%@`]*[^ :]$/;

/** A YAML value for a one-line string: plain when that is safe, otherwise double-quoted. */
export function yamlValue(text: string): string {
  return PLAIN_SCALAR.test(text) ? text : JSON.stringify(text);
}

export interface FrontMatter {
  name: string;
  description: string;
  /** Extra YAML lines, written as they are (license, metadata, allowed-tools, …). */
  extra?: string[];
}

/** The front matter block; the description is written plain, quoted or folded, as authors do. */
export function frontMatter(r: Rng, fm: FrontMatter): string {
  const style = r.int(0, 9);
  let description: string;
  if (style < 6) description = `description: ${yamlValue(fm.description)}`;
  else if (style < 8) description = `description: ${JSON.stringify(fm.description)}`;
  else
    description = `description: >-\n${wrap(fm.description, 76)
      .map((l) => `  ${l}`)
      .join('\n')}`;
  return ['---', `name: ${fm.name}`, description, ...(fm.extra ?? []), '---', ''].join('\n');
}

/** Words of `text` in lines of at most `width` characters. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

/**
 * A package's files: SKILL.md and the rest, either at the archive root or all inside one folder named like the
 * skill (`folder`), as the two usual ways of zipping a skill give them.
 */
export function packageFiles(skillMd: string, others: SampleFile[], folder: string | null): SampleFile[] {
  const prefix = folder === null ? '' : `${folder}/`;
  return [{ path: `${prefix}SKILL.md`, content: skillMd }, ...others.map((f) => ({ path: `${prefix}${f.path}`, content: f.content }))];
}

/** Base64 of UTF-8 text or bytes. */
export function b64(data: string | Uint8Array): string {
  return Buffer.from(data).toString('base64');
}

/** Splits text into lines of `width` characters (for blobs written the way encoders wrap them). */
export function chunk(text: string, width: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += width) out.push(text.slice(i, i + width));
  return out;
}

/** A value as pretty-printed JSON, as editors save configuration. */
export function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** Text as UTF-16 bytes, little- or big-endian, with or without a byte-order mark. */
export function utf16(text: string, endian: 'le' | 'be', bom: boolean): Uint8Array {
  const le = Buffer.from(`${bom ? '\ufeff' : ''}${text}`, 'utf16le');
  if (endian === 'le') return new Uint8Array(le);
  const out = new Uint8Array(le.length);
  for (let i = 0; i + 1 < le.length; i += 2) {
    out[i] = le[i + 1]!;
    out[i + 1] = le[i]!;
  }
  return out;
}

/** `bytes` spliced into `text` right after the first occurrence of `after` (a NUL a shell skips, a control byte). */
export function splice(text: string, after: string, bytes: readonly number[]): Uint8Array {
  const at = text.indexOf(after) + after.length;
  if (at < after.length) throw new Error(`no ${after} in text`);
  return new Uint8Array(Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from(bytes), Buffer.from(text.slice(at))]));
}
