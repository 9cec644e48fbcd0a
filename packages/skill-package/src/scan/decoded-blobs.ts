/**
 * A base64 blob is decoded (at most DECODED_PER_FILE per file, DECODED_CAP characters each) and, when it decodes
 * to text, its lines are read by the command rules as a script: a shell stage stored as "model.bin.b64" runs the
 * same commands as one stored in the clear. Findings sit at the blob's line, in the blob's file.
 */
import type { LineInput } from './file-state.js';
import { groupsOfLine } from './prefilter.js';
import { scanCommands } from './rules-command.js';

const DECODED_PER_FILE = 3;
const DECODED_CAP = 65536;
const DECODED_LINES = 400;
/** Share of printable characters (with tabs and newlines) for decoded bytes to count as text. */
const TEXT_SHARE = 0.95;

function decodedText(base64: string): string | null {
  const bytes = Buffer.from(base64.slice(0, Math.floor(Math.min(base64.length, DECODED_CAP) / 4) * 4), 'base64');
  if (bytes.length < 16) return null;
  let printable = 0;
  for (const b of bytes) if ((b >= 0x20 && b < 0x7f) || b === 0x09 || b === 0x0a || b === 0x0d || b >= 0x80) printable += 1;
  return printable / bytes.length >= TEXT_SHARE ? bytes.toString('utf8') : null;
}

/** Reads the decoded text of `base64` (whitespace removed) as a script, reporting at `input`'s line. */
export function scanDecoded(input: LineInput, base64: string): void {
  const { facts } = input.file;
  const done = facts.get('decoded-blobs') ?? 0;
  if (done >= DECODED_PER_FILE) return;
  facts.set('decoded-blobs', done + 1);
  const text = decodedText(base64.replace(/\s+/g, ''));
  if (text === null) return;
  for (const line of text.split('\n').slice(0, DECODED_LINES)) {
    const groups = groupsOfLine(line, true);
    if (groups !== 0) scanCommands({ text: line, line: input.line, context: 'script', file: input.file }, groups);
  }
}
