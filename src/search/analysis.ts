import { stemmer } from 'stemmer';

/**
 * One word of a text as the index sees it: `surface` is the word folded (lower case, no diacritics), `term` what
 * it is indexed under (the English stem for Latin-script words, the surface otherwise), and `start`/`end` its place
 * in the original text in UTF-16 code units, for highlighting.
 */
export interface Token {
  surface: string;
  term: string;
  start: number;
  end: number;
  /** A pair of characters from a script written without spaces: matched as part of a substring, never as a prefix. */
  gram: boolean;
}

/**
 * Scripts written without spaces between words: their runs are indexed as overlapping character pairs. By
 * Script_Extensions rather than Script, so a mark shared between scripts (the long-vowel mark ー is "Common") stays in its run.
 */
const UNSPACED = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}]/u;
/** A run of letters, digits and combining marks: what punctuation, spaces, hyphens, underscores and dots separate. */
const RUN = /[\p{L}\p{N}\p{M}]+/gu;
/** Where camelCase and letter/digit changes split a run: `PdfTools` → Pdf|Tools, `HTTPServer` → HTTP|Server. */
const CAMEL = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u;
const MARKS = /\p{M}+/gu;
const LATIN_WORD = /^[a-z]+$/;

export const ASCII = /^[ -~]*$/;
/** ASCII with no capital after the first character: nothing to split (unspaced scripts are never ASCII). */
const PLAIN_ASCII_WORD = /^[ -~][ -@[-~]*$/;

/** Lower case without diacritics: `Café` and `cafe` are one word. */
export function fold(text: string): string {
  // Most words are ASCII, which has nothing to decompose: lower-casing alone folds them, at a fraction of the cost.
  if (ASCII.test(text)) return text.toLowerCase();
  return text.normalize('NFKD').replace(MARKS, '').toLowerCase().normalize('NFC');
}

/** The stem of a folded Latin-script word (publish, publishing, published → publish); other words stay as they are. */
export function termOf(surface: string): string {
  return surface.length > 3 && LATIN_WORD.test(surface) ? stemmer(surface) : surface;
}

/** For callers that need only the surfaces. */
export const unstemmed: Stem = (surface) => surface;

/** How a folded word becomes its term: `termOf`, or a lookup of the words already stemmed in front of it. */
export type Stem = (surface: string) => string;

function word(text: string, start: number, stem: Stem): Token {
  const surface = fold(text);
  return { surface, term: stem(surface), start, end: start + text.length, gram: false };
}

/** Overlapping character pairs of a run without spaces (a lone character stands alone), so any substring of two or more characters is found. */
function grams(run: string, start: number): Token[] {
  const chars = [...run];
  const offsets: number[] = [];
  let offset = start;
  for (const char of chars) {
    offsets.push(offset);
    offset += char.length;
  }
  offsets.push(offset);
  if (chars.length === 1) {
    const surface = fold(run);
    return [{ surface, term: surface, start, end: offset, gram: true }];
  }
  const tokens: Token[] = [];
  for (let i = 0; i + 1 < chars.length; i += 1) {
    const surface = fold(`${chars[i] ?? ''}${chars[i + 1] ?? ''}`);
    tokens.push({ surface, term: surface, start: offsets[i] ?? start, end: offsets[i + 2] ?? offset, gram: true });
  }
  return tokens;
}

/** Splits a run of letters and digits into its words and its unspaced-script pieces. */
export function splitRun(run: string, start: number, stem: Stem = termOf): Token[] {
  const tokens: Token[] = [];
  let offset = 0;
  // Most runs are one plain ASCII word: they skip the per-character script test and the camelCase split.
  if (PLAIN_ASCII_WORD.test(run)) return [word(run, start, stem)];
  // A run may mix scripts ("PDF表格"): spaced and unspaced stretches are analysed each their own way.
  const stretches = stretchesOf(run);
  for (const stretch of stretches) {
    const at = start + offset;
    if (stretch.unspaced) tokens.push(...grams(stretch.text, at));
    else {
      // Only a real camelCase word is split: "gAmMa" or "iPhone" would fall apart into letters.
      const parts = stretch.text.split(CAMEL);
      if (parts.some((part) => part.length < 2)) tokens.push(word(stretch.text, at, stem));
      else {
        let partAt = at;
        for (const part of parts) {
          tokens.push(word(part, partAt, stem));
          partAt += part.length;
        }
      }
    }
    offset += stretch.text.length;
  }
  return tokens;
}

/** Consecutive stretches of a run that are, or are not, written without spaces. */
function stretchesOf(run: string): { text: string; unspaced: boolean }[] {
  const stretches: { text: string; unspaced: boolean }[] = [];
  for (const char of run) {
    const unspaced = UNSPACED.test(char);
    const last = stretches.at(-1);
    if (last?.unspaced === unspaced) last.text += char;
    else stretches.push({ text: char, unspaced });
  }
  return stretches;
}

/** Every word of `text`, in order. */
export function tokenize(text: string, stem: Stem = termOf): Token[] {
  const tokens: Token[] = [];
  if (ASCII.test(text)) {
    asciiRuns(text, (start, end, camel) => {
      if (!camel) tokens.push(word(text.slice(start, end), start, stem));
      else for (const token of splitRun(text.slice(start, end), start, stem)) tokens.push(token);
    });
    return tokens;
  }
  for (const match of text.matchAll(RUN)) tokens.push(...splitRun(match[0], match.index, stem));
  return tokens;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}
export function isUpper(code: number): boolean {
  return code >= 65 && code <= 90;
}
function isLower(code: number): boolean {
  return code >= 97 && code <= 122;
}

/**
 * The runs of letters and digits of an ASCII text, as `RUN` finds them, without a match object or a string for
 * each: `[start, end)` and whether a capital stands after the run's first character (a camelCase run, which
 * `splitRun` splits). Indexing a skill and highlighting a page read thousands of words; most are plain ASCII.
 */
export function asciiRuns(text: string, visit: (start: number, end: number, camel: boolean) => void): void {
  let at = 0;
  while (at < text.length) {
    const code = text.charCodeAt(at);
    if (!isDigit(code) && !isUpper(code) && !isLower(code)) {
      at += 1;
      continue;
    }
    const start = at;
    let camel = false;
    for (at += 1; at < text.length; at += 1) {
      const next = text.charCodeAt(at);
      if (isUpper(next)) camel = true;
      else if (!isDigit(next) && !isLower(next)) break;
    }
    visit(start, at, camel);
  }
}

/**
 * The extra words a compound stands for: `pdf-tools`, `PdfTools` and `pdf_tools` are also indexed as `pdftools`,
 * so a query written as one word meets a name written as two.
 */
export function compounds(text: string): string[] {
  const joined: string[] = [];
  for (const chunk of text.split(/\s+/u)) {
    const parts = tokenize(chunk, unstemmed).filter((t) => !t.gram);
    if (parts.length > 1 && parts.length <= 4) joined.push(parts.map((t) => t.surface).join(''));
  }
  return joined;
}
