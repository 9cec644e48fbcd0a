import { CONFUSABLE_PROTOTYPES } from './confusables.js';

/** Each confusable character (by code point) and the ASCII it looks like. */
const PROTOTYPE_OF: ReadonlyMap<number, string> = new Map(
  Object.entries(CONFUSABLE_PROTOTYPES).flatMap(([prototype, points]) =>
    points.split(' ').map((hex) => [Number.parseInt(hex, 16), prototype] as const),
  ),
);

/** Marks (accents) and characters that show nothing (zero-width spaces and joiners, soft hyphens, bidi controls). */
const INVISIBLE = /[\p{M}\p{Default_Ignorable_Code_Point}]/gu;
const SEPARATORS = /[\s._-]+/g;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * A name as it looks, in ASCII where it looks like ASCII: compatibility-decomposed (fullwidth and mathematical
 * letters become plain ones), each character that Unicode's confusables (UTS #39) list as looking like ASCII
 * replaced by what it looks like (Cyrillic а, Greek ο), accents and invisible characters dropped, lower-cased.
 * Separators and digits are kept: `visibleForm('Pdf‐Tооls')` is `pdf-tools`.
 */
export function visibleForm(name: string): string {
  // Printable ASCII decomposes to itself and holds no marks, nothing invisible and nothing to map.
  if (PRINTABLE_ASCII.test(name)) return name.toLowerCase();
  let out = '';
  for (const char of name.normalize('NFKD').replace(INVISIBLE, '')) {
    out += PROTOTYPE_OF.get(char.codePointAt(0)!) ?? char;
  }
  return out.toLowerCase();
}

/**
 * Digits and letters that read as other letters in a name, and what they fold to. No two digits fold to the same
 * letter, so names that differ only in a number (`pdf-16`, `pdf-18`) stay apart (6 is left as it is: it reads as b,
 * which 8 already takes); `i` joins `l` and `1`, which many fonts draw alike. Hand-written: this is the ASCII half of
 * UTS #39's skeleton (0→o, 1→l, rn→m) widened by the digits people type for letters, which the Unicode data leaves out.
 */
export const LOOK_ALIKE_CHARACTERS: Readonly<Record<string, string>> = {
  '0': 'o',
  '1': 'l',
  i: 'l',
  '|': 'l',
  '2': 'z',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '8': 'b',
  '9': 'g',
  $: 's',
  '@': 'a',
};
const LOOK_ALIKE_CHARACTER = /[0-57-9i|$@]/g;
/** Letter pairs that read as one letter: `rn` as `m`, `vv` as `w`, `cl` as `d`. */
const LOOK_ALIKE_PAIRS: Readonly<Record<string, string>> = { rn: 'm', vv: 'w', cl: 'd' };
// Three fixed alternatives: each position is tried once, so the match is linear.
const LOOK_ALIKE_PAIR = /rn|vv|cl/g;

/**
 * A name with separators dropped and look-alike characters folded one for one (`PDF_T00LS` and `pdf-tools` both
 * read `pdftools`): the form the one-typo rule measures, where one typed character stays one character.
 */
export function letterForm(name: string): string {
  return compactForm(name).replace(LOOK_ALIKE_CHARACTER, (found) => LOOK_ALIKE_CHARACTERS[found]!);
}

/**
 * The skeleton two names are compared by: the letter form with letter pairs that read as one letter folded too.
 * Names whose skeletons are equal are confusable (`pdf-tools`, `PDF_T00LS`, `pdf.tооls`, `pdf-toois`).
 */
export function skeleton(name: string): string {
  return letterForm(name).replace(LOOK_ALIKE_PAIR, (found) => LOOK_ALIKE_PAIRS[found]!);
}

/** The visible form without separators: digits and letters as they are, for reading what was added to a name. */
export function compactForm(name: string): string {
  return visibleForm(name).replace(SEPARATORS, '');
}
