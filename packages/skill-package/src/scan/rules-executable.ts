/**
 * Scripts nobody can review: packed (the classic `eval(function(p,a,c,k,e,…)` packer, or the generated `_0x…`
 * identifiers of JavaScript obfuscators) and minified (lines longer than MINIFIED_LINE in a script, or longer than
 * LINE_CAP in any text file). Packed scripts weigh `critical` wherever they are (nothing honest ships
 * its code packed or obfuscated inside a package meant to be read); minified lines `low`.
 */
import { severityOf } from './catalogue.js';
import type { LineInput } from './file-state.js';
import { report } from './report.js';

export const MINIFIED_LINE = 2000;
const PACKER = /\beval\s*\(\s*function\s*\(\s*p\s*,\s*a\s*,\s*c\s*,\s*k\s*,\s*e\s*,\s*[rd]\s*\)/;
const OBFUSCATED_NAME = /\b_0x[0-9a-f]{4,6}\b/g;
const OBFUSCATED_MIN = 20;

/**
 * Escaped bytes (`\x68`) or code units (`\u0068`) of printable ASCII: obfuscators hide every string of a script this
 * way, letters and all. Escapes of anything else have honest uses that fill lines too: box-drawing characters
 * (`\u2550`), a language's characters in a pattern (`\u7684`), terminal colours (`\x1b[0m`), the serialized bytes of
 * generated code (`\x8a\x01`); in the public collections they were every legitimate script this rule quarantined.
 */
const ESCAPE = /\\x(?:[2-6][0-9a-fA-F]|7[0-9a-eA-E])|\\u00(?:[2-6][0-9a-fA-F]|7[0-9a-eA-E])/g;
const ESCAPES_MIN = 40;

export function scanPacked(input: LineInput): void {
  const { text } = input;
  if (text.includes('\\x') || text.includes('\\u')) {
    ESCAPE.lastIndex = 0;
    let count = 0;
    let first = -1;
    let m: RegExpExecArray | null;
    while (count < ESCAPES_MIN && (m = ESCAPE.exec(text)) !== null) {
      if (first === -1) first = m.index;
      count += 1;
    }
    if (count >= ESCAPES_MIN && !input.file.facts.has('escapes-reported')) {
      input.file.facts.set('escapes-reported', input.line);
      report(
        input,
        'executable.packed-script',
        severityOf('executable.packed-script'),
        first,
        24,
        'This script spells its strings as escape sequences (\\x68\\x74…), the output of an obfuscator; what it does cannot be reviewed. Ship the readable source.',
      );
    }
  }
  const packer = PACKER.exec(text);
  if (packer !== null) {
    report(input, 'executable.packed-script', severityOf('executable.packed-script'), packer.index, packer[0].length);
    return;
  }
  if (!text.includes('_0x')) return;
  OBFUSCATED_NAME.lastIndex = 0;
  let first = -1;
  let count = 0;
  let m: RegExpExecArray | null;
  while ((m = OBFUSCATED_NAME.exec(text)) !== null && count < OBFUSCATED_MIN) {
    if (first === -1) first = m.index;
    count += 1;
  }
  const total = (input.file.facts.get('obfuscated-names') ?? 0) + count;
  input.file.facts.set('obfuscated-names', total);
  if (count > 0 && total >= OBFUSCATED_MIN && !input.file.facts.has('packed-reported')) {
    input.file.facts.set('packed-reported', input.line);
    report(
      input,
      'executable.packed-script',
      severityOf('executable.packed-script'),
      first,
      8,
      'Generated identifiers such as _0x1a2b fill this script: the output of a JavaScript obfuscator, which cannot be reviewed; ship the readable source.',
    );
  }
}

export function reportLongLine(input: LineInput, length: number): void {
  if (input.file.facts.has('minified-reported')) return;
  input.file.facts.set('minified-reported', input.line);
  report(
    input,
    'executable.minified',
    severityOf('executable.minified'),
    0,
    Math.min(input.text.length, 80),
    `Line ${input.line} is ${length >= 65536 ? 'over 64 KiB' : `${length} characters`} long: minified code or data cannot be reviewed by reading; ship the readable source beside it or explain what it is.`,
  );
}
