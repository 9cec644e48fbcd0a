import { validationFailed } from './errors.js';

/**
 * Display text: what people read to decide which skill (or organisation) they are looking at: names, descriptions,
 * categories, tags. It must show what it holds, so characters that reorder, hide or fake text are refused:
 *
 * - bidirectional controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C): "PDF\u202eslooT" shows as "PDF Tools";
 * - default-ignorable code points (zero-width spaces and joiners, U+2060–U+2064, U+FEFF, the soft hyphen, U+034F,
 *   Hangul fillers, U+180E, variation selectors, tag characters U+E0000–U+E007F, …) and every other format character
 *   (such as the interlinear annotation marks U+FFF9–U+FFFB, which hide the text between them);
 * - control characters (C0 and C1), and line and paragraph separators; a multi-line text (a description) may hold
 *   `\n`, `\t`, and `\r` directly before `\n`;
 * - private-use, unassigned and surrogate code points, which show as nothing or as whatever a font decides.
 *
 * Allowed in context, because real text needs them and they hide nothing there:
 * - the zero-width joiner inside an emoji sequence (after an emoji, a skin tone or U+FE0F, before an emoji: 👩🏽‍💻);
 * - U+FE0E and U+FE0F (text and emoji presentation) directly after a character that can be shown as an emoji (❤️, 1️⃣);
 * - the zero-width joiner and non-joiner between two characters of a script that shapes with them (Arabic script,
 *   which writes Persian and Urdu, Syriac, N'Ko, Mongolian, and the Brahmic scripts of South and South-East Asia):
 *   "می‌خواهم" in Persian, conjunct forms in Devanagari.
 * Everything else is decided per code point by its Unicode properties, as the running JavaScript engine knows them.
 */

export interface DisplayTextOptions {
  /** A description: `\n`, `\t` (and `\r` directly before `\n`) are allowed. */
  multiline?: boolean;
}

// Every code point that may be refused, in one character class (linear); each is then judged in its context.
const SUSPECT = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/gu;
const BIDI = /^\p{Bidi_Control}$/u;
const TAG = /^[\u{E0000}-\u{E007F}]$/u;
const CONTROL = /^[\p{Cc}\p{Zl}\p{Zp}]$/u;
const PRIVATE = /^\p{Co}$/u;
const UNASSIGNED = /^\p{Cn}$/u;
const SURROGATE = /^\p{Cs}$/u;
/** What a zero-width joiner may follow in an emoji sequence: an emoji, a skin tone, or the emoji presentation selector. */
const EMOJI_BEFORE_JOINER = /^[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F]$/u;
const EMOJI_AFTER_JOINER = /^\p{Extended_Pictographic}$/u;
const EMOJI_BASE = /^\p{Emoji}$/u;
/** Scripts whose shaping uses ZWJ and ZWNJ (Script_Extensions, so their combining marks count too). */
const JOINING_SCRIPT =
  /^[\p{scx=Arabic}\p{scx=Syriac}\p{scx=Nko}\p{scx=Mongolian}\p{scx=Devanagari}\p{scx=Bengali}\p{scx=Gurmukhi}\p{scx=Gujarati}\p{scx=Oriya}\p{scx=Tamil}\p{scx=Telugu}\p{scx=Kannada}\p{scx=Malayalam}\p{scx=Sinhala}\p{scx=Myanmar}\p{scx=Khmer}\p{scx=Tibetan}]$/u;

const ZWNJ = '\u200C';
const ZWJ = '\u200D';

/** The code point before UTF-16 index `at` (a whole surrogate pair), or '' at the start. */
function codePointBefore(text: string, at: number): string {
  if (at === 0) return '';
  const low = text.charCodeAt(at - 1);
  if (at >= 2 && low >= 0xdc00 && low <= 0xdfff) {
    const high = text.charCodeAt(at - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.slice(at - 2, at);
  }
  return text.slice(at - 1, at);
}

/** The code point at UTF-16 index `at`, or '' at the end. */
function codePointAt(text: string, at: number): string {
  const code = text.codePointAt(at);
  return code === undefined ? '' : String.fromCodePoint(code);
}

/** Whether the suspect `char` at UTF-16 index `at` is allowed where it stands. */
function allowedHere(text: string, at: number, char: string, multiline: boolean): boolean {
  if (multiline && (char === '\n' || char === '\t')) return true;
  if (multiline && char === '\r') return text[at + 1] === '\n';
  if (char === ZWJ || char === ZWNJ) {
    const before = codePointBefore(text, at);
    const after = codePointAt(text, at + char.length);
    if (char === ZWJ && EMOJI_BEFORE_JOINER.test(before) && EMOJI_AFTER_JOINER.test(after)) return true;
    return JOINING_SCRIPT.test(before) && JOINING_SCRIPT.test(after);
  }
  if (char === '\uFE0E' || char === '\uFE0F') return EMOJI_BASE.test(codePointBefore(text, at));
  return false;
}

/** The code point as people write it: U+202E. */
export function codePointLabel(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** What kind of character a refused one is, and how to fix the text. */
function describe(char: string, multiline: boolean): string {
  if (BIDI.test(char)) return 'a bidirectional control, which changes the order text is shown in; remove it';
  if (TAG.test(char)) return 'an invisible tag character; remove it';
  if (CONTROL.test(char)) {
    if (char === '\n' || char === '\r' || char === '\u2028' || char === '\u2029') {
      return multiline ? 'a line or paragraph separator other than a line feed; end lines with \\n' : 'a line break; write it on one line';
    }
    return multiline ? 'a control character; remove it (only \\n and \\t are allowed)' : 'a control character; remove it';
  }
  if (char === ZWJ) return 'an invisible joiner outside an emoji sequence or a script that joins letters; remove it';
  if (char === ZWNJ) return 'an invisible non-joiner outside a script that joins letters; remove it';
  if (char === '\uFE0E' || char === '\uFE0F') return 'a variation selector that follows no emoji; remove it';
  if (PRIVATE.test(char)) return 'a private-use character, which shows differently in every font; remove it';
  if (SURROGATE.test(char)) return 'half of a UTF-16 surrogate pair (invalid Unicode); send the whole character';
  if (UNASSIGNED.test(char)) return 'a code point Unicode does not assign; remove it';
  return 'an invisible character (zero-width, default-ignorable or a formatting control); remove it';
}

interface Refused {
  /** UTF-16 index. */
  index: number;
  char: string;
}

function* refusedIn(text: string, multiline: boolean): Generator<Refused> {
  for (const match of text.matchAll(SUSPECT)) {
    const index = match.index;
    if (!allowedHere(text, index, match[0], multiline)) yield { index, char: match[0] };
  }
}

/**
 * Why `text` cannot be shown as display text, naming the first refused character, its position (in characters,
 * from 1) and the fix; null when it can.
 */
export function displayTextProblem(text: string, options: DisplayTextOptions = {}): string | null {
  const multiline = options.multiline === true;
  for (const { index, char } of refusedIn(text, multiline)) {
    const position = [...text.slice(0, index)].length + 1;
    return `must not contain ${codePointLabel(char)} at character ${position}: ${describe(char, multiline)}`;
  }
  return null;
}

/** Refuses display text with a 400 `validation_failed` naming `field` (`name`, `tags[2]`, …). */
export function checkDisplayText(field: string, text: string, options: DisplayTextOptions = {}): void {
  const problem = displayTextProblem(text, options);
  if (problem !== null) throw validationFailed([{ field, message: problem }]);
}

/**
 * `text` with every refused character removed, and the distinct code points that were (as U+XXXX), for text that
 * is kept rather than refused (a description read from a package's SKILL.md). Removing one character can change
 * another's context (a joiner whose emoji was a removed selector), so it repeats until nothing is refused: every
 * round removes at least one character, and each round is linear.
 */
export function withoutRefusedCharacters(text: string, options: DisplayTextOptions = {}): { text: string; removed: string[] } {
  const multiline = options.multiline === true;
  const removed = new Set<string>();
  let current = text;
  for (;;) {
    const refused = [...refusedIn(current, multiline)];
    if (refused.length === 0) return { text: current, removed: [...removed] };
    let kept = '';
    let from = 0;
    for (const { index, char } of refused) {
      kept += current.slice(from, index);
      from = index + char.length;
      removed.add(codePointLabel(char));
    }
    current = kept + current.slice(from);
  }
}
