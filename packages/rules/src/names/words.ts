import { compactForm, visibleForm } from './skeleton.js';
import { nameSound, spokenForm } from './sound.js';

const SEPARATOR_RUN = /[\s._-]+/;

/** The most words that may be added to a known name (anywhere, in any order) for the result to count as it. */
export const MAX_ADDED_WORDS = 2;

/** The words of a name as written (visible form, separators dropped), in order. */
export function nameWords(name: string): string[] {
  return visibleForm(name)
    .split(SEPARATOR_RUN)
    .filter((word) => word !== '');
}

/**
 * A word as it reads and sounds: its sound form (`kommz`, `c0mms` and `comms` are one word), a plural's `s` dropped
 * from words of four or more letters (`patterns` and `pattern`, `skills` and `skill` are one word).
 */
export function wordSound(word: string): string {
  return nameSound(singular(word));
}

/** A word of four or more letters without its plural's `s` (or the `z` written for it); `docx` keeps its `x`. */
function singular(word: string): string {
  const letters = compactForm(word);
  return letters.length >= 4 && /[^s][sz]$/.test(letters) ? letters.slice(0, -1) : letters;
}

/** The endings that make a thing its doer, its doing or its plural. */
const ENDING = /(?:ers|er|ors|or|ings|ing|ed|es|s)$/;

/**
 * A word without the ending that makes it a doer, a doing or a plural, and a final `e` (`reviewer`, `reviewing` and
 * `reviews` are `review`; `guidelineer` and `guidelines` are `guidelin`); a word with a digit is kept whole.
 * Hand-written: Porter's stemmer (the `stemmer` package) keeps `-er` on short words (`pdfer`, `looper`, `tester`) and
 * stems `vulnerabilities` and `vulnerabilitieer` apart.
 */
export function wordStem(word: string): string {
  const letters = compactForm(word);
  if (/[0-9]/.test(letters)) return letters;
  const ending = ENDING.exec(letters);
  let stem = ending !== null && ending.index >= 3 ? letters.slice(0, ending.index) : letters;
  if (stem.length > 3 && stem.endsWith('e')) stem = stem.slice(0, -1);
  return stem;
}

/**
 * A word as it reads with its vowels left out but the first letter (`security` and `scrty`, `patterns` and `pttrns`
 * read `skrt` and `ptrns`): how a word is abbreviated by the letters that carry it.
 */
export function wordConsonants(word: string): string {
  // A number is written out, never abbreviated (`2024` and `2025` stay apart).
  if (/[0-9]/.test(word)) return compactForm(word);
  // Every `c` is `k` here: a soft `c` reads `s` only beside the vowel that is left out (`cmplnc`, `compliance`).
  const spoken = spokenForm(compactForm(word).replaceAll('c', 'k'));
  return spoken.slice(0, 1) + spoken.slice(1).replace(/[aeiou1|]/g, '');
}

/** The key of a set of words whatever their order: their sound forms, sorted. */
export function wordsKey(sounds: readonly string[]): string {
  return [...sounds].sort().join(' ');
}

/** One way to read a name as fewer words plus some added: the words kept (by key) and those set aside. */
export interface WordReading {
  key: string;
  /** The words set aside, as written. */
  added: string[];
  /** Whether the one word set aside stood between two kept ones (`pdf-kit-tools`) rather than first or last. */
  inside: boolean;
  /** Whether the two words set aside are the name's first and last (`acme-pdf-tools-pro`). */
  ends?: boolean;
  /** Whether the two words set aside stand together at one end (`pdf-tools-bot-pro`). */
  edge?: boolean;
}

/**
 * Every reading of `name` with none, one or up to MAX_ADDED_WORDS of its words set aside (at least one kept), the
 * fewest set aside first. A name of n words has 1 + n + n(n-1)/2 readings: a slug holds at most some twenty words.
 */
export function wordReadings(name: string, sound: (word: string) => string = wordSound): WordReading[] {
  const written = nameWords(name);
  const sounds = written.map(sound);
  const readings: WordReading[] = [{ key: wordsKey(sounds), added: [], inside: false }];
  const keep = (skip: ReadonlySet<number>) => sounds.filter((_, i) => !skip.has(i));
  if (written.length >= 2) {
    for (let i = 0; i < written.length; i += 1) {
      readings.push({ key: wordsKey(keep(new Set([i]))), added: [written[i]!], inside: i > 0 && i < written.length - 1 });
    }
  }
  if (written.length >= 3) {
    for (let i = 0; i < written.length; i += 1) {
      for (let j = i + 1; j < written.length; j += 1) {
        readings.push({
          key: wordsKey(keep(new Set([i, j]))),
          added: [written[i]!, written[j]!],
          inside: false,
          ends: i === 0 && j === written.length - 1,
          edge: j === i + 1 && (i === 0 || j === written.length - 1),
        });
      }
    }
  }
  return readings;
}
