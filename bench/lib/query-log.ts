// A log of distinct searches as people type them into a registry's search box: one to three words taken from
// the catalogue's own names and descriptions (so common words come up as often as they are common), the last
// one cut short as typed in 40% of them. No query is repeated: every answer is computed afresh.
import { generator, type GeneratedSkill } from './generate.js';

const WORD = /[a-z][a-z0-9]+/g;

/** `count` distinct queries drawn from `rows` (seeded: the same rows give the same log). */
export function queryLog(rows: readonly Pick<GeneratedSkill, 'name' | 'description'>[], count: number, seed = 7): string[] {
  const random = generator(seed);
  const queries = new Set<string>();
  for (let attempt = 0; queries.size < count && attempt < count * 20; attempt += 1) {
    const row = rows[Math.floor(random() * rows.length)];
    if (row === undefined) continue;
    // Half from names, half from descriptions: people search for what a skill is called and for what it does.
    const text = random() < 0.5 ? row.name : row.description;
    const words = text.toLowerCase().match(WORD) ?? [];
    if (words.length === 0) continue;
    const length = Math.min(words.length, 1 + Math.floor(random() * 3));
    const start = Math.floor(random() * (words.length - length + 1));
    const picked = words.slice(start, start + length);
    if (random() < 0.4) {
      const last = picked.pop() ?? '';
      picked.push(last.slice(0, Math.min(last.length, 2 + Math.floor(random() * 4))));
    }
    queries.add(picked.join(' '));
  }
  return [...queries];
}
