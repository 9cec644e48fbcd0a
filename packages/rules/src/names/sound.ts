import { LOOK_ALIKE_CHARACTERS, compactForm } from './skeleton.js';

/**
 * Spellings that sound alike, folded one way, in the order they apply to a name's letters (digits already read as
 * letters, `i` and `1` kept apart from `l` until the end): `x` is `ks`, `ph` is `f`, `qu`, `kw` and `q` are `k`, `ck` is
 * `k`, a `c` before `e`, `i` or `y` is `s` (before `1`, which reads `l` as often as `i`, it is `k`) and any other `c` but one before `s` or `z` is `k`, `z` is `s`, `y` is `i`,
 * and last (I_AS_L) `i` and `1` read as `l`. `dockz`, `docx` and `doks` all read `doks`; `klikhouse`
 * reads as `clickhouse` and `privaci` as `privacy`.
 */
const SOUND_FOLDS: readonly (readonly [RegExp, string])[] = [
  [/x/g, 'ks'],
  [/ph/g, 'f'],
  [/qu|kw|q/g, 'k'],
  [/ck/g, 'k'],
  [/c(?=[eiy])/g, 's'],
  // A `c` before `s` or `z` stays (`z` then reads `s`): `docs` is a word of its own, not `docx` (`x` became `ks` above).
  [/c(?![sz])/g, 'k'],
  [/z/g, 's'],
  [/y/g, 'i'],
];
/** Last, `i` and `1` read as `l`, as many fonts draw them alike. */
const I_AS_L = /[i1|]/g;
/** A letter written twice or more reads as one (`pddf`, `komms`). */
const DOUBLED = /([a-z0-9])\1+/g;
/** Digits and signs typed for letters, as the skeleton reads them, but `1`, which reads `i` or `l` and is folded with them. */
const DIGIT_LETTER = /[02-57-9$@]/g;

/**
 * Letters as they sound: sound-alike spellings folded and doubled letters made single. Two names whose sound forms
 * are equal read alike aloud and at a glance (`koding-standardz` and `coding-standards`, `pddf` and `pdf`). Takes
 * lower-case letters and digits, as `compactForm` gives them.
 */
export function soundForm(letters: string): string {
  return spokenForm(letters).replace(I_AS_L, 'l').replace(DOUBLED, '$1');
}

/** The sound form before `i` is read as `l`: vowels are still vowels there, for reading a word's consonants. */
export function spokenForm(letters: string): string {
  // Doubled letters are made single before the folds too, so that `pptxx` does not read `ptksks`.
  const spelt = letters.replace(DIGIT_LETTER, (found) => LOOK_ALIKE_CHARACTERS[found]!).replace(DOUBLED, '$1');
  return SOUND_FOLDS.reduce((out, [pattern, to]) => out.replace(pattern, to), spelt).replace(DOUBLED, '$1');
}

/** A name's sound form: what it shows, separators set aside, as it sounds. */
export function nameSound(name: string): string {
  return soundForm(compactForm(name));
}
