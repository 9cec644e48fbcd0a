/**
 * One expression that matches wherever any of a list of patterns matches, so that a line is read once to ask whether
 * any of them is there rather than once per pattern. Rules keep their lists (each pattern documented, tried in order
 * where the first to match is reported) and ask the alternation first.
 */

/** Every alternation made so far, so that the tests check each for catastrophic backtracking as they check literals. */
const built: RegExp[] = [];

/**
 * The alternation of `patterns`: each one an alternative as it is, so no gap or repetition is added to any. They must
 * share their flags (a `g` aside) and hold no back-reference, whose group numbers the alternation would shift.
 */
export function anyOf(patterns: readonly RegExp[]): RegExp {
  const joined = join(patterns);
  built.push(joined);
  return joined;
}

export function alternations(): readonly RegExp[] {
  return built;
}

function join(patterns: readonly RegExp[]): RegExp {
  // Any of none matches nothing (an empty expression would match everywhere).
  if (patterns.length === 0) return /(?!)/;
  const flags = patterns[0]?.flags.replace('g', '') ?? '';
  for (const pattern of patterns) {
    if (pattern.flags.replace('g', '') !== flags) throw new Error(`Patterns of different flags cannot be joined: /${pattern.source}/`);
    if (/\\[1-9]|\\k</.test(pattern.source)) throw new Error(`A pattern with a back-reference cannot be joined: /${pattern.source}/`);
  }
  return new RegExp(patterns.map((pattern) => `(?:${pattern.source})`).join('|'), flags);
}
