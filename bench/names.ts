// The look-alike name rules (packages/rules/src/names) on real skill names: every SKILL.md under the directories
// given (its front matter's `name`, else its folder's name), made a slug as the registry would.
//
//   npm run bench:names -- <directory>… [--show N] [--postgres postgres://…]
//
// (a) The 200 most frequent names are the "most downloaded" (downloads by frequency); the look-alikes an attacker
//     would try for each (digits for letters, separators and case, Cyrillic letters, one-typo names, claim words and
//     tags before or after) must all be refused. (b) Every real name, checked as a new name of a new owner against
//     all the others: the share refused, with examples to judge. (c) Held out: look-alikes of kinds the rules were not
//     written against (other added words, mixed scripts, accents, invisible characters, letter-only tags); (c2) a
//     second such set; (c3) a third, in bench/names-c3.ts, written before the word-order rules, whose misses later rules were written against; (c4) a fourth, in
//     bench/names-c4.ts, written before the run-together, byline and dressing-run rules, which then took up its kinds;
//     (c5) a fifth, in bench/names-c5.ts, written after those rules, whose misses later rules were written against;
//     (c6) a sixth, in bench/names-c6.ts, written before those rules, whose misses later rules were written against;
//     (c7) a seventh, in bench/names-c7.ts, written before those rules, whose misses later rules were written against;
//     (c8) an eighth, in bench/names-c8.ts, written before those rules, whose misses later rules were written against;
//     (c9) a ninth, in bench/names-c9.ts, written before those rules, whose misses later rules were written against;
//     (c10) a tenth, in bench/names-c10.ts, written before those rules, whose misses later rules were written against;
//     (c11) an eleventh, in bench/names-c11.ts, written before those rules, whose misses later rules were written against;
//     (c12) a twelfth, in bench/names-c12.ts, written before those rules, whose misses later rules were written against;
//     (c13) a thirteenth, in bench/names-c13.ts, written before those rules, whose misses later rules were written against;
//     (c14) a fourteenth, in bench/names-c14.ts, written before those rules, whose misses later rules were written against;
//     (c15) a fifteenth, in bench/names-c15.ts, written before those rules, whose misses later rules were written against;
//     (c16) a sixteenth, in bench/names-c16.ts, written before those and never tuned against.
//     (d) The time a check takes against 100,000 names; (e) a whole check at creation (the names read from the
//     database, indexed, judged) with 100,000 skills of 5,000 owners, on SQLite, or PostgreSQL with `--postgres URL`.
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../src/db/database.js';
import { nameAllowancesRepository } from '../src/db/repositories/name-allowances.js';
import { namesRepository } from '../src/db/repositories/names.js';
import { nameService } from '../src/domain/names/names.js';
import { newId } from '../src/lib/ids.js';
import { benchDatabase } from './lib/seed.js';
import { thirdHeldOutAttacks } from './names-c3.js';
import { fourthHeldOutAttacks } from './names-c4.js';
import { fifthHeldOutAttacks } from './names-c5.js';
import { sixthHeldOutAttacks } from './names-c6.js';
import { seventhHeldOutAttacks } from './names-c7.js';
import { eighthHeldOutAttacks } from './names-c8.js';
import { ninthHeldOutAttacks } from './names-c9.js';
import { tenthHeldOutAttacks } from './names-c10.js';
import { eleventhHeldOutAttacks } from './names-c11.js';
import { twelfthHeldOutAttacks } from './names-c12.js';
import { thirteenthHeldOutAttacks } from './names-c13.js';
import { fourteenthHeldOutAttacks } from './names-c14.js';
import { fifteenthHeldOutAttacks } from './names-c15.js';
import { sixteenthHeldOutAttacks } from './names-c16.js';
import { parse as parseYaml } from 'yaml';
import { slugFromName, slugProblem } from '@skill-registry/rules/skill-fields';
import { skeleton } from '@skill-registry/rules/names/skeleton';
import {
  CLAIM_WORDS,
  MIN_EDIT_LENGTH,
  POPULAR_DOWNLOADS,
  judgeName,
  nameIndex,
  type ExistingName,
} from '@skill-registry/rules/names/similarity';

const POPULAR_COUNT = 200;

function skillNames(directory: string, found: string[]): void {
  let entries;
  try {
    entries = readdirSync(directory, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory() && entry.name !== '.git' && entry.name !== 'node_modules') skillNames(full, found);
    else if (entry.isFile() && entry.name === 'SKILL.md') found.push(nameOf(full));
  }
}

function nameOf(file: string): string {
  const folder = path.basename(path.dirname(file));
  try {
    const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(readFileSync(file, 'utf8'));
    const data: unknown = front ? parseYaml(front[1]!) : null;
    const name = (data as { name?: unknown } | null)?.name;
    return typeof name === 'string' && name.trim() !== '' ? name : folder;
  } catch {
    return folder;
  }
}

/** A seeded random source, so every run tries the same variants. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const DIGIT_FOR: Record<string, string> = { o: '0', l: '1', i: '1', e: '3', a: '4', s: '5', t: '7', b: '8', g: '9', z: '2' };
const CYRILLIC_FOR: Record<string, string> = { a: 'а', c: 'с', e: 'е', i: 'і', j: 'ј', o: 'о', p: 'р', s: 'ѕ', x: 'х', y: 'у' };
const GREEK_FOR: Record<string, string> = { a: 'α', i: 'ι', k: 'κ', n: 'η', o: 'ο', p: 'ρ', t: 'τ', u: 'υ', v: 'ν', x: 'χ' };
const FULLWIDTH = (c: string) => (/[a-z0-9]/.test(c) ? String.fromCodePoint(c.codePointAt(0)! + 0xfee0) : c);

/** Replaces the first (or every) letter that `table` has a look-alike for. */
function swap(name: string, table: Record<string, string>, every: boolean): string {
  let done = false;
  return [...name]
    .map((c) => {
      if ((done && !every) || table[c] === undefined) return c;
      done = true;
      return table[c];
    })
    .join('');
}

function randomTag(next: () => number, length: number, letters = ALPHABET): string {
  let tag = '';
  for (let i = 0; i < length; i += 1) tag += letters[Math.floor(next() * letters.length)]!;
  return tag;
}

/** One typo of each kind: a letter left out, doubled, changed, or two neighbours swapped. */
function typos(name: string, next: () => number): string[] {
  const at = (max: number) => Math.floor(next() * max);
  const out: string[] = [];
  const letters = [...name].map((c, i) => [c, i] as const).filter(([c]) => c !== '-');
  const [, del] = letters[at(letters.length)]!;
  out.push(name.slice(0, del) + name.slice(del + 1));
  const ins = at(name.length + 1);
  out.push(name.slice(0, ins) + 'abcdefghijklmnopqrstuvwxyz'[at(26)]! + name.slice(ins));
  const [old, sub] = letters[at(letters.length)]!;
  const replacement = 'abcdefghijklmnopqrstuvwxyz'.replace(old, '')[at(25)]!;
  out.push(name.slice(0, sub) + replacement + name.slice(sub + 1));
  const pairs = [...name]
    .map((_, i) => i)
    .filter((i) => i + 1 < name.length && name[i] !== name[i + 1] && name[i] !== '-' && name[i + 1] !== '-');
  if (pairs.length > 0) {
    const i = pairs[at(pairs.length)]!;
    out.push(name.slice(0, i) + name[i + 1]! + name[i]! + name.slice(i + 2));
  }
  return out;
}

/** The look-alikes the rules were written against. */
function tunedAttacks(name: string, next: () => number): Record<string, string[]> {
  return {
    'digits for letters': [swap(name, DIGIT_FOR, false), swap(name, DIGIT_FOR, true)],
    'separators and case': [
      name.replaceAll('-', '_'),
      name.replaceAll('-', '.'),
      name.replaceAll('-', ''),
      name.toUpperCase(),
      name.replace(/^./, (c) => c.toUpperCase()),
    ],
    'Cyrillic letters': [swap(name, CYRILLIC_FOR, false), swap(name, CYRILLIC_FOR, true)],
    'one typo': name.replaceAll('-', '').length >= MIN_EDIT_LENGTH ? typos(name, next) : [],
    'claim word added': ['official', 'pro', 'v2', 'app', 'tool', 'cli', 'ai', 'dev', 'new', 'real', 'secure']
      .flatMap((w) => [`${name}-${w}`])
      .concat(['official', 'real', 'new'].map((w) => `${w}-${name}`)),
    'tag added': [`${name}-${randomTag(next, 4)}`, `${name}-${randomTag(next, 2, '0123456789')}`, `${randomTag(next, 4)}-${name}`],
  };
}

/** Look-alikes of other kinds, never looked at while the rules were tuned. */
function heldOutAttacks(name: string, next: () => number): Record<string, string[]> {
  const mixed = [...name]
    .map((c, i) => (i % 3 === 0 ? (GREEK_FOR[c] ?? c) : i % 3 === 1 ? (CYRILLIC_FOR[c] ?? DIGIT_FOR[c] ?? c) : FULLWIDTH(c)))
    .join('');
  return {
    'mixed scripts and widths': [mixed, swap(name, GREEK_FOR, true), [...name].map(FULLWIDTH).join('')],
    'accents and invisible characters': [
      name.replace(/[aeiou]/, (v) => `${v}\u0301`),
      name.replace('-', '\u200b-'),
      name.replace(/[ou]/, (v) => (v === 'o' ? 'ö' : 'ü')),
    ],
    'other added words': ['enhanced', 'next', 'gold', 'turbo', 'ultimate', 'hd', 'xl', '2025', 'x']
      .map((w) => `${name}-${w}`)
      .concat(['the', 'my', 'get'].map((w) => `${w}-${name}`)),
    'letter-only tags': [
      `${name}-${randomTag(next, 3, 'abcdefghijklmnopqrstuvwxyz')}`,
      `${name}-${randomTag(next, 5, 'abcdefghijklmnopqrstuvwxyz')}`,
    ],
    'separator noise': [name.replaceAll('-', '--'), `${name}-`, name.replace(/(.)/, '$1-')],
  };
}

/**
 * A second held-out set, written after the first had been looked at and never tuned against: word order, two added
 * words, plural and singular, a doubled letter, a dropped vowel, letters that sound alike.
 */
function secondHeldOutAttacks(name: string, next: () => number): Record<string, string[]> {
  const words = name.split('-');
  const vowels = [...name].map((c, i) => [c, i] as const).filter(([c], i) => i > 0 && 'aeiou'.includes(c));
  const dropAt = vowels.length > 0 ? vowels[Math.floor(next() * vowels.length)]![1] : -1;
  const doubleAt = Math.floor(next() * name.length);
  return {
    'words in another order': words.length >= 2 ? [[...words].reverse().join('-')] : [],
    'two words added': [`${name}-by-acme`, `${name}-for-teams`, `best-free-${name}`],
    'plural or singular': [name.endsWith('s') ? name.slice(0, -1) : `${name}s`],
    'a doubled letter': name[doubleAt] === '-' ? [] : [name.slice(0, doubleAt + 1) + name.slice(doubleAt)],
    'a vowel dropped': dropAt > 0 ? [name.slice(0, dropAt) + name.slice(dropAt + 1)] : [],
    'letters that sound alike': [
      name
        .replace(/ph/g, 'f')
        .replace(/c(?=[aou])/g, 'k')
        .replace(/x/g, 'ks')
        .replace(/s$/, 'z'),
    ],
  };
}

interface Tally {
  tried: number;
  /** Refused by the look-alike rules (or taken). */
  refused: number;
  /** Refused before the rules look: not a slug the registry accepts at all (upper case, other scripts, `--`). */
  malformed: number;
  missed: string[];
}

/** Why a variant cannot be taken: not a valid slug, refused by the rules (or taken), or null when it can. */
type Refusal = 'format' | 'rules' | null;

function tallyAttacks(
  popular: readonly string[],
  make: (name: string, next: () => number) => Record<string, string[]>,
  refused: (variant: string) => Refusal,
  seed: number,
): Map<string, Tally> {
  const next = random(seed);
  const tallies = new Map<string, Tally>();
  for (const name of popular) {
    for (const [kind, variants] of Object.entries(make(name, next))) {
      const tally = tallies.get(kind) ?? { tried: 0, refused: 0, malformed: 0, missed: [] };
      tallies.set(kind, tally);
      for (const variant of variants) {
        if (variant === name) continue;
        tally.tried += 1;
        const why = refused(variant);
        if (why === 'rules') tally.refused += 1;
        else if (why === 'format') tally.malformed += 1;
        else tally.missed.push(`${variant} (of ${name})`);
      }
    }
  }
  return tallies;
}

function printTallies(title: string, tallies: Map<string, Tally>, show: number): void {
  console.log(`\n${title}`);
  console.log('| look-alike | tried | not a valid slug | refused by the rules | refused in all |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  const share = (part: number, whole: number) => `${((100 * part) / Math.max(1, whole)).toFixed(1)}%`;
  let tried = 0;
  let refused = 0;
  let malformed = 0;
  for (const [kind, tally] of tallies) {
    tried += tally.tried;
    refused += tally.refused;
    malformed += tally.malformed;
    const all = tally.refused + tally.malformed;
    console.log(
      `| ${kind} | ${tally.tried} | ${tally.malformed} | ${share(tally.refused, tally.tried - tally.malformed)} | ${share(all, tally.tried)} |`,
    );
  }
  console.log(`| all | ${tried} | ${malformed} | ${share(refused, tried - malformed)} | ${share(refused + malformed, tried)} |`);
  for (const [kind, tally] of tallies) {
    if (tally.missed.length > 0) console.log(`  missed (${kind}): ${tally.missed.slice(0, show).join(', ')}`);
  }
}

function timeLargeIndex(): void {
  const next = random(7);
  const existing: ExistingName[] = [];
  for (let i = 0; i < 100_000; i += 1) {
    const words = 1 + Math.floor(next() * 3);
    const name = Array.from({ length: words }, () => randomTag(next, 3 + Math.floor(next() * 6), 'abcdefghijklmnopqrstuvwxyz')).join('-');
    existing.push({
      name,
      ownerId: `o${i % 5000}`,
      downloads: next() < 0.1 ? 100 + Math.floor(next() * 10_000) : Math.floor(next() * 100),
      published: next() < 0.8,
    });
  }
  const started = performance.now();
  const index = nameIndex(existing);
  const built = performance.now();
  const probes = 1000;
  for (let i = 0; i < probes; i += 1) judgeName(`${existing[i]!.name}-${randomTag(next, 3)}`, index, 'newcomer');
  const judged = performance.now();
  console.log(`\n(d) 100,000 names: index ${(built - started).toFixed(0)} ms, then ${((judged - built) / probes).toFixed(3)} ms a check`);
}

/** A whole check at creation against 100,000 stored skills of 5,000 owners: read, indexed and judged. */
async function timeStoredNames(databaseUrl: string | undefined): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-names-'));
  const database = await benchDatabase(dataDir, databaseUrl);
  const handle = openDatabase({ ...database.config, statementTimeoutMs: 0 });
  try {
    await handle.migrate();
    const next = random(11);
    const now = new Date().toISOString();
    const users = Array.from({ length: 5000 }, (_, i) => ({
      id: newId(),
      username: `owner-${i}`,
      email: `owner-${i}@localhost`,
      password_hash: '!',
      role: 'user' as const,
      disabled: 0,
      created_at: now,
      updated_at: now,
    }));
    for (let i = 0; i < users.length; i += 1000)
      await handle.db
        .insertInto('users')
        .values(users.slice(i, i + 1000))
        .execute();
    const skills = Array.from({ length: 100_000 }, (_, i) => ({
      id: newId(),
      slug: `${randomTag(next, 3 + Math.floor(next() * 6), 'abcdefghijklmnopqrstuvwxyz')}-${i}`,
      name: `skill ${i}`,
      description: '',
      tags: '[]',
      status: next() < 0.8 ? ('published' as const) : ('draft' as const),
      featured: 0,
      owner_id: users[i % users.length]!.id,
      downloads: next() < 0.1 ? 100 + Math.floor(next() * 10_000) : Math.floor(next() * 100),
      created_at: now,
      updated_at: now,
    }));
    for (let i = 0; i < skills.length; i += 2000)
      await handle.db
        .insertInto('skills')
        .values(skills.slice(i, i + 2000))
        .execute();
    const names = nameService({ names: namesRepository(handle.db), allowances: nameAllowancesRepository(handle.db) });
    const times: Record<string, number[]> = { skill: [], handle: [] };
    for (let i = 0; i < 5; i += 1) {
      let started = performance.now();
      await names.checkNewName('skill', `fresh-name-${i}`, users[0]!.id);
      times.skill!.push(performance.now() - started);
      started = performance.now();
      await names.checkNewName('handle', `fresh-handle-${i}`, null);
      times.handle!.push(performance.now() - started);
    }
    const span = (list: number[]) => `${Math.min(...list).toFixed(0)} – ${Math.max(...list).toFixed(0)} ms`;
    console.log(
      `\n(e) ${database.label}, 100,000 skills of 5,000 owners: a slug check ${span(times.skill!)}, a handle check ${span(times.handle!)}`,
    );
  } finally {
    await handle.close();
    await database.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const postgresAt = args.indexOf('--postgres');
  const databaseUrl = postgresAt >= 0 ? args.splice(postgresAt, 2)[1] : undefined;
  const showAt = args.indexOf('--show');
  const show = showAt >= 0 ? Number(args.splice(showAt, 2)[1]) : 12;
  if (args.length === 0) {
    console.error('usage: npm run bench:names -- <directory>… [--show N]');
    process.exit(2);
  }
  const raw: string[] = [];
  for (const directory of args) skillNames(directory, raw);
  const frequency = new Map<string, number>();
  for (const name of raw) {
    const slug = slugFromName(name);
    if (slugProblem(slug) === null) frequency.set(slug, (frequency.get(slug) ?? 0) + 1);
  }
  const ranked = [...frequency].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const popular = ranked.slice(0, POPULAR_COUNT).map(([name]) => name);
  const existing: ExistingName[] = ranked.map(([name, count], rank) => ({
    name,
    ownerId: `owner-${rank}`,
    downloads: rank < POPULAR_COUNT ? POPULAR_DOWNLOADS * count + (POPULAR_COUNT - rank) : Math.min(count, POPULAR_DOWNLOADS - 1),
    published: true,
  }));
  const started = performance.now();
  const index = nameIndex(existing);
  const known = new Set(frequency.keys());
  // A variant the slug rule refuses cannot be created at all; one that is itself an existing name is refused as taken;
  // otherwise the look-alike rules judge it.
  const refused = (variant: string): Refusal =>
    slugProblem(variant) !== null ? 'format' : known.has(variant) || judgeName(variant, index, 'attacker') !== null ? 'rules' : null;
  console.log(
    `${raw.length} SKILL.md files, ${frequency.size} distinct names; the ${POPULAR_COUNT} most frequent have ${POPULAR_DOWNLOADS}+ downloads`,
  );
  console.log(`(claim words: ${CLAIM_WORDS.length}; one-edit rule from ${MIN_EDIT_LENGTH} characters)`);

  // Each set with its title, in order: its place in the list seeds its random choices, so figures stay comparable.
  const sets: [string, (name: string, next: () => number) => Record<string, string[]>][] = [
    ['(a) look-alikes of the most downloaded names (tuned kinds): all must be refused', tunedAttacks],
    ['(c) held out: look-alikes of other kinds', heldOutAttacks],
    ['(c2) second held-out set: look-alikes of further kinds', secondHeldOutAttacks],
    ['(c3) third set (bench/names-c3.ts), training since: reorders, stand-in and role words, repeats, mixed kinds', thirdHeldOutAttacks],
    [
      '(c4) fourth set (bench/names-c4.ts), training since: two changes in one name, vendor words, bylines, abbreviations',
      fourthHeldOutAttacks,
    ],
    [
      '(c5) fifth set (bench/names-c5.ts), training since: two changes in one name, words split or left out, numbers joined on',
      fifthHeldOutAttacks,
    ],
    ['(c6) sixth set (bench/names-c6.ts), training since: changes of the earlier sets in new pairs', sixthHeldOutAttacks],
    ['(c7) seventh set (bench/names-c7.ts), training since: changes of the earlier sets in new places and pairs', seventhHeldOutAttacks],
    ['(c8) eighth set (bench/names-c8.ts), training since: two changes of the earlier sets together in new ways', eighthHeldOutAttacks],
    ['(c9) ninth set (bench/names-c9.ts), training since: a change of the earlier sets joined to another in new ways', ninthHeldOutAttacks],
    ['(c10) tenth set (bench/names-c10.ts), training since: more changes of the earlier sets joined in new ways', tenthHeldOutAttacks],
    [
      '(c11) eleventh set (bench/names-c11.ts), training since: run-on words, connectors and abbreviations together',
      eleventhHeldOutAttacks,
    ],
    [
      '(c12) twelfth set (bench/names-c12.ts), training since: connectors dropped or as digits, words cut, letters doubled or changed',
      twelfthHeldOutAttacks,
    ],
    [
      '(c13) thirteenth set (bench/names-c13.ts), training since: vendors, phrases, letters read as others, claims inside',
      thirteenthHeldOutAttacks,
    ],
    [
      '(c14) fourteenth set (bench/names-c14.ts), training since: extensions, years, foreign claims, two vowels dropped',
      fourteenthHeldOutAttacks,
    ],
    [
      '(c15) fifteenth set (bench/names-c15.ts), training since: numbers and vendors between words, middle words left out, plurals',
      fifteenthHeldOutAttacks,
    ],
    ['(c16) sixteenth held-out set (bench/names-c16.ts): domains, joins, swaps, doubled vowels, backwards', sixteenthHeldOutAttacks],
  ];
  sets.forEach(([title, attacks], i) => printTallies(title, tallyAttacks(popular, attacks, refused, i + 1), show));

  const refusals: string[] = [];
  const reasons = new Map<string, number>();
  for (const [name] of ranked) {
    // The name as new: its own entry is set aside (a name someone holds would be answered as taken).
    const key = skeleton(name);
    const bucket = index.bySkeleton.get(key) as ExistingName[];
    const at = bucket.findIndex((entry) => entry.name === name);
    const [own] = bucket.splice(at, 1);
    const verdict = judgeName(name, index, 'newcomer');
    bucket.splice(at, 0, own!);
    if (verdict === null) continue;
    const kind = verdict.rule;
    reasons.set(kind, (reasons.get(kind) ?? 0) + 1);
    refusals.push(`${name} ~ ${verdict.resembles ?? ''} (${kind})`);
  }
  const elapsed = performance.now() - started;
  console.log(
    `\n(b) real names checked as new names of another owner: ${refusals.length} of ${ranked.length} refused (${((100 * refusals.length) / ranked.length).toFixed(2)}%, must be under 1%)`,
  );
  console.log(`  by rule: ${[...reasons].map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}`);
  for (const line of refusals.slice(0, show * 3)) console.log(`  ${line}`);
  console.log(`  (${ranked.length} checks and the index in ${elapsed.toFixed(0)} ms)`);
  timeLargeIndex();
  await timeStoredNames(databaseUrl);
}

await main();
