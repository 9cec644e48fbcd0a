/**
 * Spellings that sound alike, folded one way, in the order they apply to a skeleton (where `i` already reads as
 * `l`): `x` is `ks`, `ph` is `f`, `qu` and `q` are `k`, `ck` is `k`, a `c` before `e` or `y` is `s` and any other `c`
 * but one before `s` or `z` is `k`, `z` is `s`, `y` is `i` (so `l` in a skeleton). `dockz`, `docx` and `doks` all read `doks`.
 */
const SOUND_FOLDS: readonly (readonly [RegExp, string])[] = [
  [/x/g, 'ks'],
  [/ph/g, 'f'],
  [/qu|q/g, 'k'],
  [/ck/g, 'k'],
  [/c(?=[ey])/g, 's'],
  // A `c` before `s` or `z` stays (`z` then reads `s`): `docs` is a word of its own, not `docx` (`x` became `ks` above).
  [/c(?![sz])/g, 'k'],
  [/z/g, 's'],
  [/y/g, 'l'],
];
/** A letter written twice or more reads as one (`pddf`, `komms`). */
const DOUBLED = /([a-z0-9])\1+/g;

/**
 * A skeleton as it sounds: sound-alike spellings folded and doubled letters made single. Two names whose sound forms
 * are equal read alike aloud and at a glance (`koding-standardz` and `coding-standards`, `pddf` and `pdf`).
 */
export function soundForm(skeleton: string): string {
  // Doubled letters are made single before the folds too, so that `pptxx` does not read `ptksks`.
  return SOUND_FOLDS.reduce((out, [pattern, to]) => out.replace(pattern, to), skeleton.replace(DOUBLED, '$1')).replace(DOUBLED, '$1');
}
