// A realistic, reproducible registry: skill names, descriptions, categories, tags and download counts drawn from
// a seeded generator. Shared by the benchmark suite (bench/run.ts) and the search-plan test.
import { slugFromName } from '@skill-registry/rules/skill-fields';
import { newId } from '../../src/lib/ids.js';

/** Occurs in a few dozen rows of 100,000: a selective search word. */
export const RARE = 'quokkaflux';
/** Occurs in about one row in a hundred. */
export const UNCOMMON = 'zebraprint';

export const CATEGORIES = [
  'documents',
  'development',
  'devops',
  'data',
  'productivity',
  'communication',
  'design',
  'finance',
  'marketing',
  'security',
  'research',
  'writing',
  'education',
  'media',
  'sales',
  'support',
  'legal',
  'health',
  'travel',
  'games',
  'science',
  'math',
  'ops',
  'hr',
  'crm',
  'erp',
  'analytics',
  'ai',
  'ml',
  'nlp',
  'vision',
  'audio',
  'video',
  'web',
  'mobile',
  'iot',
  'cloud',
  'database',
  'testing',
  'misc',
];
export const ADJECTIVES = [
  'quick',
  'smart',
  'simple',
  'advanced',
  'tiny',
  'mega',
  'auto',
  'easy',
  'pro',
  'lite',
  'super',
  'fast',
  'secure',
  'open',
  'universal',
  'handy',
  'neat',
  'bright',
  'rapid',
  'clever',
];
export const NOUNS = [
  'pdf',
  'excel',
  'word',
  'markdown',
  'json',
  'yaml',
  'csv',
  'chart',
  'graph',
  'image',
  'video',
  'audio',
  'email',
  'slack',
  'github',
  'gitlab',
  'jira',
  'notion',
  'calendar',
  'invoice',
  'report',
  'summary',
  'translator',
  'converter',
  'extractor',
  'parser',
  'scraper',
  'search',
  'index',
  'database',
  'sql',
  'postgres',
  'sqlite',
  'redis',
  'docker',
  'kubernetes',
  'deploy',
  'test',
  'linter',
  'formatter',
  'review',
  'refactor',
  'code',
  'python',
  'typescript',
  'rust',
  'golang',
  'java',
  'shell',
  'terminal',
  'browser',
  'http',
  'api',
  'graphql',
  'oauth',
  'secret',
  'vault',
  'hash',
  'archive',
  'zip',
  'backup',
  'sync',
  'upload',
  'storage',
  'cloud',
  'monitor',
  'metrics',
  'logs',
  'alert',
  'incident',
  'ticket',
  'chat',
  'bot',
  'agent',
  'assistant',
  'planner',
  'schedule',
  'todo',
  'note',
  'wiki',
  'docs',
  'diagram',
  'mermaid',
  'slides',
  'spreadsheet',
  'table',
  'dataset',
  'forecast',
  'budget',
  'tax',
  'contract',
  'compliance',
  'scanner',
  'audit',
  'privacy',
  'map',
  'weather',
  'recipe',
  'fitness',
  'music',
  'photo',
  'figma',
  'color',
  'font',
  'icon',
  'seo',
  'newsletter',
  'blog',
  'editor',
  'grammar',
  'ocr',
  'speech',
  'voice',
  'transcript',
];
export const VERBS = [
  'converts',
  'summarises',
  'extracts',
  'generates',
  'validates',
  'formats',
  'translates',
  'indexes',
  'monitors',
  'deploys',
  'tests',
  'reviews',
  'schedules',
  'tracks',
  'analyses',
  'renders',
  'exports',
  'imports',
  'cleans',
  'merges',
];
const SYLLABLES = [
  'ka',
  'zen',
  'tor',
  'ix',
  'vel',
  'mo',
  'ra',
  'qui',
  'lum',
  'bra',
  'dex',
  'no',
  'sta',
  'phi',
  'gor',
  'ul',
  'tri',
  'van',
  'ex',
  'cor',
  'mi',
  'sol',
  'ter',
  'ba',
  'ny',
  'lo',
  'fi',
  'gra',
  'pek',
  'om',
  'ru',
  'sy',
  'wen',
  'dal',
  'ri',
  'ho',
  'jin',
  'ko',
  'xa',
  'ze',
];
/** Tags, most popular first: a skill's tags are drawn with a strong bias towards the head of the list. */
export const TAGS = [
  'cli',
  'automation',
  'python',
  'ai',
  'llm',
  'typescript',
  'productivity',
  'api',
  'json',
  'markdown',
  'pdf',
  'git',
  'docker',
  'testing',
  'csv',
  'excel',
  'data',
  'web',
  'security',
  'devops',
  'cloud',
  'aws',
  'gcp',
  'azure',
  'sql',
  'postgres',
  'sqlite',
  'redis',
  'images',
  'audio',
  'video',
  'ocr',
  'nlp',
  'translation',
  'writing',
  'email',
  'slack',
  'github',
  'jira',
  'notion',
  'calendar',
  'finance',
  'reports',
  'charts',
  'scraping',
  'monitoring',
  'logging',
  'k8s',
  'terraform',
  'ansible',
  'rust',
  'golang',
  'java',
  'shell',
  'linux',
  'macos',
  'windows',
  'offline',
  'mcp',
  'agents',
];

/** mulberry32: a small seeded generator, so every run builds the same registry. */
export function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

export interface GeneratedSkill {
  id: string;
  /** Derived from the name as the registry derives one, made unique with a numeric suffix. */
  slug: string;
  name: string;
  description: string;
  category: string;
  /** Normalised (lower-case, distinct), 0 to 4 of them. */
  tags: string[];
  featured: number;
  downloads: number;
  updatedAt: string;
}

export const DEFAULT_SEED = 20261121;

/**
 * `n` published skills. Names, descriptions, categories, featured flags, download counts and times come from one
 * seeded stream; tags from a second, so adding tags left every other field as it was.
 */
export function generateSkills(n: number, seed = DEFAULT_SEED): GeneratedSkill[] {
  const rnd = generator(seed);
  const tagRnd = generator(seed ^ 0x5bd1e995);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
  const brand = () => {
    const n = 2 + Math.floor(rnd() * 2);
    let word = '';
    for (let i = 0; i < n; i += 1) word += pick(SYLLABLES);
    return word;
  };
  const capital = (w: string) => w[0]!.toUpperCase() + w.slice(1);
  const start = Date.parse('2025-11-21T00:00:00.000Z');
  const slugs = new Map<string, number>();
  const rows: GeneratedSkill[] = [];
  for (let i = 0; i < n; i += 1) {
    const b = brand();
    const nameWords = [capital(b), capital(pick(NOUNS))];
    if (rnd() < 0.5) nameWords.unshift(capital(pick(ADJECTIVES)));
    if (rnd() < 0.3) nameWords.push(capital(pick(NOUNS)));
    const sentence = () =>
      `${capital(pick(VERBS))} ${pick(NOUNS)} and ${pick(NOUNS)} files with ${pick(ADJECTIVES)} ${pick(NOUNS)} support.`;
    const descWords = [`${capital(b)} is a ${pick(ADJECTIVES)} ${pick(NOUNS)} skill.`, sentence()];
    if (rnd() < 0.6) descWords.push(sentence());
    if (rnd() < 0.2) descWords.push(`Works with ${brand()} and ${brand()}.`);
    // The markers, sometimes in the name and sometimes in the description, in varying case.
    const marker = rnd();
    if (marker < 0.0002) nameWords.push('Quokkaflux');
    else if (marker < 0.0004) descWords.push(`Powered by ${RARE.toUpperCase()}.`);
    if (rnd() < 0.01) (rnd() < 0.5 ? nameWords : descWords).push(rnd() < 0.5 ? UNCOMMON : 'ZebraPrint');
    const category = CATEGORIES[Math.floor(CATEGORIES.length * rnd() * rnd())]!;
    const name = nameWords.join(' ');
    const tagCount = tagRnd() < 0.1 ? 0 : 1 + Math.floor(tagRnd() * 4);
    const tags = new Set<string>();
    for (let t = 0; t < tagCount; t += 1) tags.add(TAGS[Math.floor(TAGS.length * tagRnd() ** 2)]!);
    // From the tag stream too: the generator's common search word, in about a quarter of the skills.
    if (tags.has('cli')) descWords.push('Comes with a command-line interface.');
    rows.push({
      id: newId(),
      slug: uniqueSlug(slugs, slugFromName(name).slice(0, 56).replace(/-+$/, '')),
      name,
      description: descWords.join(' '),
      category,
      tags: [...tags],
      featured: rnd() < 0.01 ? 1 : 0,
      downloads: Math.floor(rnd() ** 4 * 1_000_000),
      updatedAt: new Date(start + Math.floor(rnd() * 365 * 86_400_000)).toISOString(),
    });
  }
  return rows;
}

function uniqueSlug(seen: Map<string, number>, base: string): string {
  const count = seen.get(base);
  if (count === undefined) {
    seen.set(base, 1);
    return base;
  }
  // A generated `base-2` may already exist as a base of its own; keep counting until the slug is free.
  for (let k = count + 1; ; k += 1) {
    const slug = `${base}-${k}`;
    if (!seen.has(slug)) {
      seen.set(base, k);
      seen.set(slug, 1);
      return slug;
    }
  }
}

/** The search semantics in plain JS, for one-word queries typed as a prefix: every word starts a word of the name or the description. */
export function matches(row: Pick<GeneratedSkill, 'name' | 'description'>, words: readonly string[]): boolean {
  // As the search reads a word typed last: some word of the name or description starts with it, words being split
  // at anything but letters and digits and where a lower-case letter meets a capital (`KoDalvel`: `ko`, `dalvel`).
  const text = ` ${row.name} ${row.description}`.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.every((w) => new RegExp(`[^a-z0-9]${w.toLowerCase().replace(/[^a-z0-9]/g, '')}`).test(text));
}

/** The word the generator writes into the descriptions of skills tagged `cli`: about a quarter of them. */
export const COMMON = 'command';

/** Two-syllable brand fragments, as the generator builds brand names from: each occurs in about 0.1% of skills. */
export function brandFragments(count: number, seed = DEFAULT_SEED): string[] {
  const rnd = generator(seed + 1);
  const words = new Set<string>();
  while (words.size < count) {
    const word = SYLLABLES[Math.floor(rnd() * SYLLABLES.length)]! + SYLLABLES[Math.floor(rnd() * SYLLABLES.length)]!;
    if (word.length >= 5) words.add(word);
  }
  return [...words];
}

/**
 * The search words of a benchmark: from candidate words, the one whose share of matching skills is nearest
 * `share` (on a log scale), with its match count.
 */
export function wordNearShare(
  rows: readonly GeneratedSkill[],
  share: number,
  candidates: readonly string[],
): { word: string; count: number } {
  let best: { word: string; count: number; distance: number } | undefined;
  for (const word of new Set(candidates.map((c) => c.toLowerCase()))) {
    const count = rows.filter((r) => matches(r, [word])).length;
    if (count === 0) continue;
    const distance = Math.abs(Math.log(count / rows.length / share));
    if (!best || distance < best.distance) best = { word, count, distance };
  }
  if (!best) throw new Error('no candidate word occurs in the generated skills');
  return { word: best.word, count: best.count };
}

/** A selective search word (about 0.1% of skills) and a common one (about 25%), with their match counts. */
export function searchWords(rows: readonly GeneratedSkill[]): {
  selective: { word: string; count: number };
  common: { word: string; count: number };
} {
  return {
    selective: wordNearShare(rows, 0.001, [RARE, UNCOMMON, ...brandFragments(16)]),
    common: wordNearShare(rows, 0.25, [COMMON, ...ADJECTIVES, ...VERBS]),
  };
}
