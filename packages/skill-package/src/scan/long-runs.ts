/**
 * Long runs of base64 and hex characters in a line, found in one pass over its characters.
 *
 * Hand-written for cost: an expression such as /[A-Za-z0-9+/]{200,}/ is tried again at every character, and each try
 * reads the run it starts in to its end, so a megabyte line of runs just short of the length looked for cost up to
 * 600 ms (199-character runs of base64, 255 of hex). Here each character is read once.
 */

const BASE64 = 1;
const HEX = 2;
/** Classes of ASCII characters: BASE64 for A–Z a–z 0–9 + /, HEX for 0–9 a–f A–F. */
const CLASS = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/') CLASS[c.charCodeAt(0)]! |= BASE64;
for (const c of '0123456789abcdefABCDEF') CLASS[c.charCodeAt(0)]! |= HEX;

export interface Run {
  index: number;
  text: string;
}

/** The first run of characters of `kind`, at least `min` long, that starts at or after `from`, as [start, end). */
function firstRun(text: string, from: number, kind: number, min: number): [number, number] | null {
  let start = from;
  for (let i = from; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 128 && (CLASS[code]! & kind) !== 0) continue;
    if (i - start >= min) return [start, i];
    start = i + 1;
  }
  return text.length - start >= min ? [start, text.length] : null;
}

/**
 * The runs of at least `min` base64 characters in `text`, each with up to two `=` after it, in order: what
 * /[A-Za-z0-9+/]{min,}={0,2}/g matches.
 */
export function* base64Runs(text: string, min: number): Generator<Run> {
  for (let run = firstRun(text, 0, BASE64, min); run !== null;) {
    const [start, end] = run;
    let stop = end;
    while (stop < end + 2 && text.charCodeAt(stop) === 0x3d) stop += 1;
    yield { index: start, text: text.slice(start, stop) };
    run = firstRun(text, stop, BASE64, min);
  }
}

/** The first run of at least `min` hex characters in `text`, with a `0x` before it: what /(?:0x)?[0-9a-fA-F]{min,}/ matches. */
export function firstHexRun(text: string, min: number): Run | null {
  const run = firstRun(text, 0, HEX, min);
  if (run === null) return null;
  const [start, end] = run;
  const prefixed = start >= 2 && text.charCodeAt(start - 2) === 0x30 && text.charCodeAt(start - 1) === 0x78;
  const from = prefixed ? start - 2 : start;
  return { index: from, text: text.slice(from, end) };
}
