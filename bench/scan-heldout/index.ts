// The scanner's held-out evaluation set: packages written by hand as attackers and honest authors write them, kept
// apart from the rules so that its scores measure what the scanner recognises, not what its authors remembered.
// Each sample is a folder under samples/: sample.json (label, families, behaviour, note) and package/ (the files
// exactly as they sit in the archive, byte for byte).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { RULE_FAMILIES, type RuleFamily } from '@skill-registry/skill-package/scan/types';
import type { Sample, SampleFile } from '../scan-corpus/sample.js';

/** What a malicious sample does; every one of them has samples in the set. */
export const MALICIOUS_BEHAVIOURS = [
  'env-exfil',
  'credential-theft',
  'unreadable-script',
  'prose-instructions',
  'notebook',
  'exec-by-config',
  'remote-shell',
  'keylogger-clipboard',
  'destructive-delete',
  'persistence',
  'runtime-exec',
] as const;

/** The behaviour of every benign sample: it shares the shape of an attack without doing harm. */
export const BENIGN_BEHAVIOUR = 'benign-lookalike';

export const HELD_OUT_BEHAVIOURS: readonly string[] = [...MALICIOUS_BEHAVIOURS, BENIGN_BEHAVIOUR];

export const SAMPLES_DIR = path.join(import.meta.dirname, 'samples');

interface SampleJson {
  label: Sample['label'];
  families: RuleFamily[];
  behaviour: string;
  note: string;
}

function isRuleFamily(value: unknown): value is RuleFamily {
  return typeof value === 'string' && (RULE_FAMILIES as readonly string[]).includes(value);
}

/** sample.json, checked field by field: a typo there would otherwise score as a scanner miss. */
function readSampleJson(file: string): SampleJson {
  const raw: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (typeof raw !== 'object' || raw === null) throw new Error(`${file}: not an object`);
  const { label, families, behaviour, note } = raw as Record<string, unknown>;
  if (label !== 'malicious' && label !== 'benign') throw new Error(`${file}: label must be malicious or benign`);
  if (!Array.isArray(families) || !families.every(isRuleFamily)) throw new Error(`${file}: families must be rule family names`);
  if (typeof behaviour !== 'string' || !HELD_OUT_BEHAVIOURS.includes(behaviour)) throw new Error(`${file}: unknown behaviour`);
  if (typeof note !== 'string' || note === '') throw new Error(`${file}: note is required`);
  return { label, families, behaviour, note };
}

/** Text when the bytes are UTF-8 that decodes and encodes back to the same bytes; the bytes themselves otherwise. */
function contentOf(bytes: Buffer): string | Uint8Array {
  const text = bytes.toString('utf8');
  return Buffer.from(text, 'utf8').equals(bytes) ? text : new Uint8Array(bytes);
}

/** Every file under `dir`, paths relative to `root` with `/` separators, in sorted order. */
function filesUnder(root: string, dir: string): SampleFile[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((entry): SampleFile[] => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return filesUnder(root, full);
      return [{ path: path.relative(root, full).split(path.sep).join('/'), content: contentOf(readFileSync(full)) }];
    });
}

/** The held-out samples, in the sorted order of their folders. */
export function loadHeldOut(dir: string = SAMPLES_DIR): Sample[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((id): Sample => {
      const meta = readSampleJson(path.join(dir, id, 'sample.json'));
      const packageDir = path.join(dir, id, 'package');
      return {
        id,
        label: meta.label,
        families: meta.families,
        behaviour: meta.behaviour,
        note: meta.note,
        files: filesUnder(packageDir, packageDir),
      };
    });
}
