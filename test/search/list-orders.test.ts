import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SearchEngine, type SearchDocument, type SearchQuery, type SearchSort } from '../../src/search/engine.js';
import { SlotOrder } from '../../src/search/slot-order.js';

/** A small deterministic generator, so a failure names a seed that repeats it. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const STATUSES = ['published', 'published', 'published', 'draft', 'deprecated', 'hidden:published'];

/** What a list must answer, worked out the slow way from the documents themselves. */
function expected(documents: Iterable<SearchDocument>, query: SearchQuery): { ids: string[]; total: number } {
  const byId = (a: SearchDocument, b: SearchDocument) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
  const keys: Record<Exclude<SearchSort, 'relevance'>, (d: SearchDocument) => number> = {
    latest: (d) => d.updatedAt,
    downloads: (d) => d.downloads,
    featured: (d) => (d.featured ? 1e13 : 0) + d.updatedAt,
  };
  const key = keys[query.sort === 'relevance' ? 'latest' : query.sort];
  const shown = [...documents].filter(
    (d) => (query.statuses === 'all' || query.statuses.includes(d.status)) && (query.featured !== true || d.featured),
  );
  shown.sort((a, b) => key(b) - key(a) || byId(a, b));
  return { ids: shown.slice(query.offset, query.offset + query.limit).map((d) => d.id), total: shown.length };
}

describe('lists without filters, read from the sort orders', () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    it(`answers every sort, page and status as a full sort would, through creates, edits, downloads and removals (seed ${seed})`, () => {
      const next = random(seed);
      const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]!;
      const documents = new Map<string, SearchDocument>();
      let clock = 1_000;
      let made = 0;
      const make = (): SearchDocument => {
        made += 1;
        return {
          id: `id-${String(Math.floor(next() * 1e6)).padStart(6, '0')}-${made}`,
          slug: `skill-${made}`,
          name: `Skill ${made}`,
          description: 'A skill.',
          category: null,
          tags: [],
          status: pick(STATUSES),
          ownerId: 'owner',
          featured: next() < 0.1,
          downloads: Math.floor(next() * 4),
          // Many skills share a time, so the id decides their order.
          updatedAt: clock - Math.floor(next() * 5),
        };
      };
      // Filled in bulk first (sorted once), then changed one at a time (each put in place).
      const engine = new SearchEngine();
      for (let i = 0; i < 300; i += 1) {
        const document = make();
        documents.set(document.id, document);
        engine.upsert(document);
      }
      engine.settleOrders();
      for (let step = 0; step < 600; step += 1) {
        const ids = [...documents.keys()];
        const roll = next();
        clock += 1;
        if (roll < 0.2) {
          const document = make();
          documents.set(document.id, document);
          engine.upsert(document);
        } else if (roll < 0.45) {
          const id = pick(ids);
          const changed = { ...documents.get(id)!, status: pick(STATUSES), featured: next() < 0.3, updatedAt: clock };
          documents.set(id, changed);
          engine.upsert(changed);
        } else if (roll < 0.55) {
          const id = pick(ids);
          const changed = { ...documents.get(id)!, description: `Edited at ${clock}.`, updatedAt: clock };
          documents.set(id, changed);
          engine.upsert(changed);
        } else if (roll < 0.8) {
          const id = pick(ids);
          const count = 1 + Math.floor(next() * 3);
          documents.set(id, { ...documents.get(id)!, downloads: documents.get(id)!.downloads + count });
          engine.addDownloads(id, count);
        } else if (roll < 0.9) {
          const id = pick(ids);
          documents.delete(id);
          engine.remove(id);
        }
        if (step % 25 !== 0) continue;
        for (const sort of ['latest', 'downloads', 'featured', 'relevance'] as const) {
          for (const statuses of [['published'], ['published', 'draft'], 'all'] as const) {
            for (const featured of [undefined, true]) {
              const query: SearchQuery = {
                text: '',
                statuses: statuses === 'all' ? 'all' : [...statuses],
                tags: [],
                sort,
                offset: Math.floor(next() * 40),
                limit: 1 + Math.floor(next() * 30),
                ...(featured === undefined ? {} : { featured }),
              };
              const answer = engine.search(query);
              const want = expected(documents.values(), query);
              assert.deepEqual(
                { ids: answer.hits.map((hit) => hit.id), total: answer.total },
                want,
                `step ${step}, ${JSON.stringify(query)}`,
              );
            }
          }
        }
      }
    });
  }
});

describe('slot order', () => {
  it('keeps slots in order through adds one at a time, adds in bulk and removals', () => {
    const keys = [50, 10, 40, 20, 30, 60, 0, 70, 15, 45];
    const order = new SlotOrder((a, b) => keys[a]! - keys[b]!);
    for (let slot = 0; slot < keys.length; slot += 1) order.add(slot);
    const read = () => {
      const down: number[] = [];
      order.walkDown((slot) => down.push(keys[slot]!) > 0);
      return down.reverse();
    };
    assert.deepEqual(read(), [0, 10, 15, 20, 30, 40, 45, 50, 60, 70]);
    order.remove(2);
    keys[2] = 65;
    order.add(2);
    assert.deepEqual(read(), [0, 10, 15, 20, 30, 45, 50, 60, 65, 70]);
    // More than a handful added at once are sorted and merged.
    for (let slot = 10; slot < 100; slot += 1) {
      keys[slot] = (slot * 37) % 101;
      order.add(slot);
    }
    const all = read();
    assert.equal(all.length, 100);
    assert.deepEqual(
      all,
      [...all].sort((a, b) => a - b),
    );
    assert.equal(order.size, 100);
  });

  it('stays in order over thousands of slots, through changes one at a time that split and empty its blocks', () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const keys: number[] = [];
    const held = new Set<number>();
    // Ties are broken by slot, as the index breaks them by id.
    const order = new SlotOrder((a, b) => keys[a]! - keys[b]! || a - b);
    const check = (step: string) => {
      const down: number[] = [];
      order.walkDown((slot) => down.push(slot) > 0);
      const want = [...held].sort((a, b) => keys[b]! - keys[a]! || b - a);
      assert.deepEqual(down, want, step);
      assert.equal(order.size, held.size, step);
    };
    for (let slot = 0; slot < 6_000; slot += 1) {
      keys[slot] = Math.floor(next() * 500);
      held.add(slot);
      order.add(slot);
    }
    check('filled');
    // Newest first: each added at the top, read after each, fills and splits the last block again and again.
    for (let slot = 6_000; slot < 9_000; slot += 1) {
      keys[slot] = 1_000 + slot;
      held.add(slot);
      order.add(slot);
      if (slot % 97 === 0) check(`added ${slot}`);
    }
    check('added at the top');
    for (let step = 0; step < 6_000; step += 1) {
      const slot = Math.floor(next() * 9_000);
      const roll = next();
      if (held.has(slot)) {
        order.remove(slot);
        held.delete(slot);
        if (roll < 0.6) {
          keys[slot] = Math.floor(next() * 2_000);
          order.add(slot);
          held.add(slot);
        }
      } else {
        keys[slot] = roll < 0.5 ? -step : Math.floor(next() * 2_000);
        order.add(slot);
        held.add(slot);
      }
      if (step % 250 === 0) check(`step ${step}`);
    }
    check('changed');
    // Emptied one by one from the bottom, so whole blocks empty and go.
    const ascending = [...held].sort((a, b) => keys[a]! - keys[b]! || a - b);
    for (const [i, slot] of ascending.entries()) {
      order.remove(slot);
      held.delete(slot);
      if (i % 1_000 === 0) check(`emptying ${i}`);
    }
    check('empty');
    order.add(3);
    held.add(3);
    check('one again');
  });
});
