import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startApp, type TestApp } from '../helpers/app.js';
import { apiBackends } from '../helpers/backends.js';
import { withStoppedClock } from '../helpers/clock.js';
import {
  adminSession,
  call,
  createKey,
  createSkill,
  expectProblem,
  expectStatus,
  json,
  registerUser,
  setStatus,
  type Auth,
  type SkillBody,
  type TestUser,
} from '../helpers/client.js';

interface Envelope {
  items: SkillBody[];
  page: number;
  page_size: number;
  total: number;
}

type Params = Record<string, string | number | boolean>;

/**
 * A random lower-case word that occurs nowhere else, so tests sharing one app cannot see each other's skills.
 * Its letters avoid vowels and the short words the tests search for (go, js, he, x, q, ...), so a token never
 * matches a short search word by accident.
 */
const TOKEN_LETTERS = 'bcklmnprvw';
function token(): string {
  return 'z' + [...randomBytes(12)].map((b) => TOKEN_LETTERS[b % TOKEN_LETTERS.length]!).join('');
}

/** Encodes each value with encodeURIComponent, so spaces, %, _, \ and " reach the server exactly as written. */
function queryString(params: Params): string {
  const parts = Object.entries(params).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

const slugs = (env: Envelope) => env.items.map((s) => s.slug);
const sortedSlugs = (env: Envelope) => slugs(env).sort();

for (const backend of apiBackends()) {
  describe(`listing and search [${backend.name}]`, () => {
    let t: TestApp;
    let admin: { cookie: string };
    let owner: TestUser;

    before(async () => {
      t = await startApp(backend);
      admin = await adminSession(t);
      owner = await registerUser(t);
    });
    after(() => t.close());

    async function list(params: Params = {}, auth: Auth = null, path = '/v1/skills'): Promise<Envelope> {
      const res = await call(t, 'GET', `${path}${queryString(params)}`, auth);
      expectStatus(res, 200);
      return json<Envelope>(res);
    }

    /** Creates a skill as `owner` (or `by`) and, unless told otherwise, has the admin publish it. */
    async function skill(body: Record<string, unknown>, opts: { publish?: boolean; by?: Auth } = {}): Promise<SkillBody> {
      const created = await createSkill(t, opts.by ?? owner.session, body);
      if (opts.publish === false) return created;
      return setStatus(t, admin, created.id, 'published');
    }

    async function feature(id: string, featured = true): Promise<void> {
      expectStatus(await call(t, 'PATCH', `/v1/admin/skills/${id}`, admin, { featured }), 200);
    }

    /** Writes a total behind the app's back, then tells the app, as another node's change would. */
    async function setDownloads(id: string, downloads: number): Promise<void> {
      await t.runtime.database.db.updateTable('skills').set({ downloads }).where('id', '=', id).execute();
      t.runtime.services.skills.changedElsewhere(id);
    }

    // ---------------------------------------------------------------------------------------------
    // Search
    // ---------------------------------------------------------------------------------------------

    describe('remembered answers', () => {
      it('a public total follows every change at once, across pages, sorts and page sizes', async () => {
        const tok = token();
        const first = await skill({ name: `Counted ${tok} one`, slug: `${tok}-1` });
        await skill({ name: `Counted ${tok} two`, slug: `${tok}-2` });
        const views: Params[] = [{ q: tok }, { q: tok, sort: 'downloads' }, { q: tok, page: 2, page_size: 1 }];
        for (const view of views) assert.equal((await list(view)).total, 2, JSON.stringify(view));
        const third = await skill({ name: `Counted ${tok} three`, slug: `${tok}-3` });
        for (const view of views) assert.equal((await list(view)).total, 3, `after a publish: ${JSON.stringify(view)}`);
        assert.deepEqual(slugs(await list({ q: tok, page: 3, page_size: 1, sort: 'latest' })), [first.slug]);
        await setStatus(t, admin, third.id, 'deprecated');
        for (const view of views) assert.equal((await list(view)).total, 2, `after a deprecation: ${JSON.stringify(view)}`);
        // Downloads change the order of sort=downloads at once, but never a total.
        await setDownloads(first.id, 50);
        expectStatus(await call(t, 'PATCH', `/v1/skills/${first.id}`, owner.session, { description: 'touched' }), 200);
        assert.deepEqual(slugs(await list({ q: tok, sort: 'downloads', page_size: 1 })), [first.slug]);
      });
    });

    describe('search', () => {
      it('is case- and diacritic-insensitive', async () => {
        const tok = token();
        const a = await skill({ name: `Alpha ${tok.toUpperCase()} Gamma`, slug: `${tok}-a`, description: 'Nothing here' });
        const b = await skill({ name: `Beta ${tok}`, slug: `${tok}-b`, description: 'Mixed case' });
        const c = await skill({ name: 'Gamma', slug: `${tok}-c`, description: `Mentions ${tok.slice(0, 4)}${tok.slice(4).toUpperCase()}` });
        for (const q of [tok, tok.toUpperCase(), tok[0]!.toUpperCase() + tok.slice(1)]) {
          const env = await list({ q });
          assert.equal(env.total, 3, `q=${q}: ${JSON.stringify(slugs(env))}`);
          assert.deepEqual(sortedSlugs(env), [a.slug, b.slug, c.slug].sort());
        }
        assert.deepEqual(slugs(await list({ q: `ALPHA gAmMa ${tok}` })), [a.slug]);
        const uber = await skill({ name: `Über ${tok} Straße`, slug: `${tok}-uber`, description: 'Grüße aus Köln und Zürich' });
        assert.deepEqual(slugs(await list({ q: `uber koln ${tok}` })), [uber.slug]);
        assert.deepEqual(slugs(await list({ q: `Zürich ${tok}` })), [uber.slug]);
      });

      it('requires every word, and falls back to the best partial matches, saying so', async () => {
        const one = token();
        const two = token();
        const split = await skill({ name: `Widget ${one}`, slug: `${one}-split`, description: `Renders ${two} charts` });
        const nameOnly = await skill({ name: `Widget ${one} ${two}`, slug: `${one}-name`, description: 'Plain' });
        const descOnly = await skill({ name: 'Plain', slug: `${one}-desc`, description: `${two} and ${one} in the text` });
        const justOne = await skill({ name: `Gadget ${one}`, slug: `${one}-just`, description: 'Has one word only' });
        await skill({ name: `Gadget ${two}`, slug: `${two}-just`, description: 'Has the other word only' });

        const both = [split.slug, nameOnly.slug, descOnly.slug].sort();
        const full = await call(t, 'GET', `/v1/skills${queryString({ q: `${one} ${two}` })}`);
        assert.equal(json<{ match: string }>(expectStatus(full, 200)).match, 'full');
        assert.deepEqual(sortedSlugs(await list({ q: `${one} ${two}` })), both);
        assert.deepEqual(sortedSlugs(await list({ q: `   ${two}  \t ${one}  ` })), both);
        assert.deepEqual(sortedSlugs(await list({ q: one })), [...both, justOne.slug].sort());
        assert.deepEqual(slugs(await list({ q: `${one} ${two} charts` })), [split.slug]);
        // A word nothing holds: the skills holding the most of the words come first, marked partial.
        const partial = json<Envelope & { match: string }>(
          expectStatus(await call(t, 'GET', `/v1/skills${queryString({ q: `${one} ${two} ${token()}` })}`), 200),
        );
        assert.equal(partial.match, 'partial');
        assert.deepEqual(
          partial.items
            .slice(0, 3)
            .map((s) => s.slug)
            .sort(),
          both,
        );
      });

      it('ranks an exact name first, then name matches above description matches, whatever the downloads', async () => {
        const tok = token();
        const inText = await skill({ name: `Helper ${tok}`, slug: `${tok}-text`, description: 'Fills PDF forms for you' });
        const inName = await skill({ name: `PDF Forms ${tok}`, slug: `${tok}-name`, description: 'Handles documents' });
        const exact = await skill({ name: `${tok} pdf`, slug: `${tok}-exact`, description: 'Short' });
        await setDownloads(inText.id, 1_000_000);
        const ranked = slugs(await list({ q: `${tok} pdf` }));
        assert.deepEqual(ranked, [exact.slug, inName.slug, inText.slug]);
        assert.deepEqual(slugs(await list({ q: `pdf forms ${tok}` })), [inName.slug, inText.slug]);
      });

      it('matches stems, split words, the last word as a prefix, typos and unspaced scripts', async () => {
        const tok = token();
        const release = await skill({ name: `Release Publisher ${tok}`, slug: `${tok}-release`, description: 'Publishing releases' });
        const camel = await skill({ name: `PdfTools ${tok}`, slug: `${tok}-camel`, description: 'Merges documents' });
        const planning = await skill({ name: `Issue Planning ${tok}`, slug: `${tok}-plan`, description: 'Plans issues' });
        const cjk = await skill({ name: `数据分析助手 ${tok}`, slug: `${tok}-cjk`, description: 'メール送信' });
        assert.deepEqual(slugs(await list({ q: `published ${tok}` })), [release.slug]);
        for (const q of ['pdf tools', 'pdf-tools', 'pdftools', 'PDF_Tools'])
          assert.deepEqual(slugs(await list({ q: `${tok} ${q}` })), [camel.slug], q);
        assert.deepEqual(slugs(await list({ q: `${tok} issue pla` })), [planning.slug]);
        // After a space the word is complete: "pla" is no word of any skill, so only partial matches remain.
        const complete = json<{ match: string }>(
          expectStatus(await call(t, 'GET', `/v1/skills${queryString({ q: `${tok} issue pla ` })}`), 200),
        );
        assert.equal(complete.match, 'partial');
        assert.deepEqual(slugs(await list({ q: `${tok} issue palnning` })), [planning.slug]);
        assert.deepEqual(slugs(await list({ q: `分析 ${tok}` })), [cjk.slug]);
        assert.deepEqual(slugs(await list({ q: `メール ${tok}` })), [cjk.slug]);
      });

      it('marks the matched words of the name and description', async () => {
        const tok = token();
        const name = `Fill PDF Forms ${tok}`;
        const description = 'Fills the forms of a PDF document.';
        await skill({ name, slug: `${tok}-hl`, description });
        const [item] = json<{ items: { highlights: { name: [number, number][]; description: [number, number][] } }[] }>(
          expectStatus(await call(t, 'GET', `/v1/skills${queryString({ q: `${tok} pdf forms` })}`), 200),
        ).items;
        const words = (text: string, spans: [number, number][]) => spans.map(([start, end]) => text.slice(start, end));
        assert.deepEqual(words(name, item!.highlights.name), ['PDF', 'Forms', tok]);
        assert.deepEqual(words(description, item!.highlights.description), ['forms', 'PDF']);
        // A plain list carries none.
        const plain = json<{ items: Record<string, unknown>[] }>(expectStatus(await call(t, 'GET', '/v1/skills?page_size=1'), 200));
        assert.equal(plain.items[0]?.highlights, undefined);
      });

      it('treats punctuation, wildcards and query syntax as separators, never as operators', async () => {
        const tok = token();
        const percent = await skill({ name: `Boost 100% ${tok}`, slug: `${tok}-percent`, description: 'Greets (politely) with * and -' });
        const underscore = await skill({ name: `snake_case ${tok}`, slug: `${tok}-underscore`, description: 'Snake case' });
        for (const q of [
          '%',
          '_',
          '\\',
          '"',
          '""',
          `"${tok}"`,
          'AND',
          'OR NOT',
          'a* NEAR(b)',
          '(politely)',
          'name:hello',
          '^x',
          '-',
          '*',
        ]) {
          expectStatus(await call(t, 'GET', `/v1/skills${queryString({ q })}`), 200);
        }
        assert.deepEqual(slugs(await list({ q: `100% ${tok}` })), [percent.slug]);
        assert.deepEqual(slugs(await list({ q: `"${tok}" (politely)` })), [percent.slug]);
        assert.deepEqual(slugs(await list({ q: `snake_case ${tok}` })), [underscore.slug]);
        assert.equal((await list({ q: '%' })).total, 0);
      });

      it('refuses sort=relevance without a search, and uses it by default with one', async () => {
        expectProblem(await call(t, 'GET', '/v1/skills?sort=relevance'), 400, 'validation_failed');
        const tok = token();
        const older = await skill({ name: `${tok} exact`, slug: `${tok}-older` });
        await skill({ name: `Newer ${tok} exact variant`, slug: `${tok}-newer` });
        assert.equal(slugs(await list({ q: `${tok} exact` }))[0], older.slug);
        assert.equal(slugs(await list({ q: `${tok} exact`, sort: 'relevance' }))[0], older.slug);
        assert.equal(slugs(await list({ q: `${tok} exact`, sort: 'latest' }))[0], `${tok}-newer`);
      });

      it('follows edits, status changes and deletions at once', async () => {
        const before = token();
        const afterName = token();
        const afterDesc = token();
        const s = await skill({ name: `Rename ${before}`, slug: `${token()}-rename`, description: `Old text ${before}` });
        assert.deepEqual(slugs(await list({ q: before })), [s.slug]);
        expectStatus(
          await call(t, 'PATCH', `/v1/skills/${s.id}`, owner.session, {
            name: `Renamed ${afterName}`,
            description: `New text ${afterDesc}`,
          }),
          200,
        );
        assert.deepEqual(slugs(await list({ q: before })), []);
        assert.deepEqual(slugs(await list({ q: afterName })), [s.slug]);
        assert.deepEqual(slugs(await list({ q: `${afterDesc} ${afterName}` })), [s.slug]);
        await setStatus(t, admin, s.id, 'deprecated');
        assert.deepEqual(slugs(await list({ q: afterName })), []);
        const gone = token();
        const draft = await skill({ name: `Gone ${gone}`, slug: `${gone}-gone` }, { publish: false });
        assert.deepEqual(slugs(await list({ q: gone, status: 'all' }, admin)), [draft.slug]);
        expectStatus(await call(t, 'DELETE', `/v1/skills/${draft.id}`, owner.session), 204);
        assert.deepEqual(slugs(await list({ q: gone, status: 'all' }, admin)), []);
      });

      it('accepts keyword, query and search as aliases of q', async () => {
        const tok = token();
        const s = await skill({ name: `Alias ${tok}`, slug: `${tok}-alias` });
        for (const name of ['q', 'keyword', 'query', 'search']) {
          const env = await list({ [name]: tok });
          assert.deepEqual(slugs(env), [s.slug], `${name}=${tok}`);
        }
      });

      it('uses the first non-blank of q, keyword, query, search', async () => {
        const a = token();
        const b = token();
        const sa = await skill({ name: `First ${a}`, slug: `${a}-first` });
        const sb = await skill({ name: `Second ${b}`, slug: `${b}-second` });
        assert.deepEqual(slugs(await list({ q: '  ', keyword: a })), [sa.slug]);
        assert.deepEqual(slugs(await list({ q: '', keyword: a })), [sa.slug]);
        assert.deepEqual(slugs(await list({ q: a, search: b })), [sa.slug]);
        assert.deepEqual(slugs(await list({ q: a, keyword: b })), [sa.slug]);
        assert.deepEqual(slugs(await list({ keyword: b, query: a })), [sb.slug]);
        assert.deepEqual(slugs(await list({ query: a, search: b })), [sa.slug]);
        assert.deepEqual(slugs(await list({ search: b, query: a })), [sa.slug]); // order in the URL does not matter
        assert.deepEqual(slugs(await list({ q: ' ', keyword: '\t', query: '   ', search: b })), [sb.slug]);
        assert.deepEqual(slugs(await list({ keyword: ' ', query: b, search: a })), [sb.slug]);
      });

      it('returns everything for a blank q', async () => {
        const tok = token();
        await skill({ name: `Blank ${tok}`, slug: `${tok}-blank` });
        const all = await list({ page_size: 100 });
        assert.ok(all.total >= 1);
        const blanks: Params[] = [
          { q: '' },
          { q: '   ' },
          { q: ' \t ' },
          { keyword: '' },
          { q: '', keyword: ' ', query: '', search: '  ' },
        ];
        for (const params of blanks) {
          const env = await list({ ...params, page_size: 100 });
          assert.equal(env.total, all.total, JSON.stringify(params));
          assert.deepEqual(slugs(env), slugs(all), JSON.stringify(params));
        }
      });
    });

    // ---------------------------------------------------------------------------------------------
    // Filters
    // ---------------------------------------------------------------------------------------------

    describe('filters', () => {
      it('matches category exactly', async () => {
        const tok = token();
        const exact = await skill({ name: `Cat ${tok} 1`, slug: `${tok}-exact`, category: `docs-${tok}` });
        const longer = await skill({ name: `Cat ${tok} 2`, slug: `${tok}-longer`, category: `docs-${tok}-extra` });
        const upper = await skill({ name: `Cat ${tok} 3`, slug: `${tok}-upper`, category: `Docs-${tok}` });
        await skill({ name: `Cat ${tok} 4`, slug: `${tok}-none` });
        assert.deepEqual(slugs(await list({ category: `docs-${tok}` })), [exact.slug]);
        assert.deepEqual(slugs(await list({ category: `docs-${tok}-extra` })), [longer.slug]);
        assert.deepEqual(slugs(await list({ category: `Docs-${tok}` })), [upper.slug]);
        assert.deepEqual(slugs(await list({ category: `docs-${tok.slice(0, 5)}` })), []);
        assert.deepEqual(slugs(await list({ category: 'docs-%', q: tok })), []);
        assert.deepEqual(slugs(await list({ category: `DOCS-${tok}` })), []);
        // Category combines with search.
        assert.deepEqual(slugs(await list({ category: `docs-${tok}`, q: `cat ${tok}` })), [exact.slug]);
        assert.equal((await list({ q: `cat ${tok}` })).total, 4);
      });

      it('requires all listed tags, trimmed and case-insensitive', async () => {
        const tok = token();
        const both = await skill({ name: `Tags ${tok} 1`, slug: `${tok}-both`, tags: ['pdf', 'office', tok] });
        const pdf = await skill({ name: `Tags ${tok} 2`, slug: `${tok}-pdf`, tags: ['pdf', tok] });
        const office = await skill({ name: `Tags ${tok} 3`, slug: `${tok}-office`, tags: ['office', tok] });
        await skill({ name: `Tags ${tok} 4`, slug: `${tok}-untagged` });
        assert.deepEqual(sortedSlugs(await list({ tags: tok })), [both.slug, pdf.slug, office.slug].sort());
        assert.deepEqual(sortedSlugs(await list({ tags: `${tok},pdf` })), [both.slug, pdf.slug].sort());
        assert.deepEqual(slugs(await list({ tags: `${tok},pdf,office` })), [both.slug]);
        assert.deepEqual(slugs(await list({ tags: ` PDF , office ,${tok.toUpperCase()} ` })), [both.slug]);
        assert.deepEqual(slugs(await list({ tags: ` PDF , office , ${tok}`, q: tok })), [both.slug]);
        assert.deepEqual(slugs(await list({ tags: `${tok},,pdf,office,` })), [both.slug]);
        assert.deepEqual(slugs(await list({ tags: `${tok},pdf,office,missing` })), []);
        // A tag filter matches whole tags, not substrings.
        assert.deepEqual(slugs(await list({ tags: tok.slice(0, 6) })), []);
      });

      it('featured=true keeps only featured skills; false applies no filter', async () => {
        const tok = token();
        const starred = await skill({ name: `Star ${tok}`, slug: `${tok}-star` });
        const plain = await skill({ name: `Plain ${tok}`, slug: `${tok}-plain` });
        const draft = await skill({ name: `Draft ${tok}`, slug: `${tok}-draft` }, { publish: false });
        await feature(starred.id);
        await feature(draft.id);
        assert.deepEqual(slugs(await list({ q: tok, featured: true })), [starred.slug]);
        assert.deepEqual(sortedSlugs(await list({ q: tok, featured: false })), [starred.slug, plain.slug].sort());
        assert.deepEqual(sortedSlugs(await list({ q: tok })), [starred.slug, plain.slug].sort());
        const featuredOnly = await list({ featured: true, page_size: 100 });
        for (const s of featuredOnly.items) {
          assert.equal(s.featured, true);
          assert.equal(s.status, 'published');
        }
        assert.equal(json<Envelope>(await call(t, 'GET', `/v1/skills?q=${tok}&featured=true`)).items[0]?.featured, true);
      });

      it('refuses an invalid featured value', async () => {
        for (const value of ['yes', 'maybe', '2', 'TRUEISH']) {
          const body = expectProblem(await call(t, 'GET', `/v1/skills${queryString({ featured: value })}`), 400, 'validation_failed');
          assert.ok(Array.isArray(body.errors), JSON.stringify(body));
        }
      });
    });

    // ---------------------------------------------------------------------------------------------
    // Status
    // ---------------------------------------------------------------------------------------------

    describe('status parameter', () => {
      let tok: string;
      let draft: SkillBody;
      let published: SkillBody;
      let deprecated: SkillBody;

      before(async () => {
        tok = token();
        draft = await skill({ name: `Draft ${tok}`, slug: `${tok}-draft` }, { publish: false });
        published = await skill({ name: `Published ${tok}`, slug: `${tok}-published` });
        deprecated = await skill({ name: `Deprecated ${tok}`, slug: `${tok}-deprecated` });
        await setStatus(t, admin, deprecated.id, 'deprecated');
      });

      it('is ignored for anonymous callers, user sessions and an admin API key', async () => {
        const user = await registerUser(t);
        const userKey = await createKey(t, user.session);
        const adminKey = await createKey(t, admin);
        const callers: [string, Auth][] = [
          ['anonymous', null],
          ['user session', user.session],
          ['user key', userKey],
          ['owner session', owner.session],
          ['admin key', adminKey],
        ];
        for (const [who, auth] of callers) {
          for (const status of [undefined, 'draft', 'published', 'deprecated', 'all', 'bogus', '', 'DRAFT']) {
            const params: Params = { q: tok };
            if (status !== undefined) params.status = status;
            const res = await call(t, 'GET', `/v1/skills${queryString(params)}`, auth);
            assert.equal(res.statusCode, 200, `${who} status=${String(status)}: ${res.body}`);
            const env = json<Envelope>(res);
            assert.deepEqual(slugs(env), [published.slug], `${who} status=${String(status)}`);
          }
        }
      });

      it('is honoured for an admin session', async () => {
        assert.deepEqual(slugs(await list({ q: tok }, admin)), [published.slug]);
        assert.deepEqual(slugs(await list({ q: tok, status: 'draft' }, admin)), [draft.slug]);
        assert.deepEqual(slugs(await list({ q: tok, status: 'published' }, admin)), [published.slug]);
        assert.deepEqual(slugs(await list({ q: tok, status: 'deprecated' }, admin)), [deprecated.slug]);
        const all = await list({ q: tok, status: 'all' }, admin);
        assert.deepEqual(sortedSlugs(all), [draft.slug, published.slug, deprecated.slug].sort());
        assert.deepEqual(Object.fromEntries(all.items.map((s) => [s.slug, s.status])), {
          [draft.slug]: 'draft',
          [published.slug]: 'published',
          [deprecated.slug]: 'deprecated',
        });
      });

      it('refuses an unknown status from an admin session', async () => {
        for (const status of ['bogus', 'DRAFT', 'Published', 'removed']) {
          const body = expectProblem(await call(t, 'GET', `/v1/skills${queryString({ q: tok, status })}`, admin), 400, 'validation_failed');
          assert.ok(JSON.stringify(body.errors).includes('status'), JSON.stringify(body));
        }
      });
    });

    // ---------------------------------------------------------------------------------------------
    // Sorting
    // ---------------------------------------------------------------------------------------------

    describe('sorting', () => {
      it('latest orders by updated_at descending; metadata and status changes bump a skill', async () => {
        const tok = token();
        // The clock moves 5 ms between changes, so each one stamps a later updated_at.
        await withStoppedClock(async (advance) => {
          const a = await skill({ name: `Latest ${tok} A`, slug: `${tok}-a` });
          advance(5);
          const b = await skill({ name: `Latest ${tok} B`, slug: `${tok}-b` });
          advance(5);
          const c = await skill({ name: `Latest ${tok} C`, slug: `${tok}-c` });
          advance(5);
          assert.deepEqual(slugs(await list({ q: tok, sort: 'latest' })), [c.slug, b.slug, a.slug]);

          // A metadata PATCH bumps A to the top.
          const patched = json<SkillBody>(
            expectStatus(await call(t, 'PATCH', `/v1/skills/${a.id}`, owner.session, { description: 'Changed' }), 200),
          );
          assert.ok(patched.updated_at > c.updated_at, `${patched.updated_at} > ${c.updated_at}`);
          assert.deepEqual(slugs(await list({ q: tok, sort: 'latest' })), [a.slug, c.slug, b.slug]);
          advance(5);

          // A status change bumps B: deprecated it is on top of the admin's full list, republished on top of the public one.
          await setStatus(t, admin, b.id, 'deprecated');
          assert.deepEqual(slugs(await list({ q: tok, status: 'all', sort: 'latest' }, admin)), [b.slug, a.slug, c.slug]);
          assert.deepEqual(slugs(await list({ q: tok, sort: 'latest' })), [a.slug, c.slug]);
          advance(5);
          await setStatus(t, admin, b.id, 'published');
          const env = await list({ q: tok, sort: 'latest' });
          assert.deepEqual(slugs(env), [b.slug, a.slug, c.slug]);
          const stamps = env.items.map((s) => s.updated_at);
          assert.deepEqual([...stamps].sort().reverse(), stamps);
        });
      });

      it('downloads orders by total downloads descending', async () => {
        const tok = token();
        const few = await skill({ name: `Dl ${tok} few`, slug: `${tok}-few` });
        const many = await skill({ name: `Dl ${tok} many`, slug: `${tok}-many` });
        const none = await skill({ name: `Dl ${tok} none`, slug: `${tok}-none` });
        const most = await skill({ name: `Dl ${tok} most`, slug: `${tok}-most` });
        await setDownloads(few.id, 3);
        await setDownloads(many.id, 250);
        await setDownloads(most.id, 1_000_000);
        const env = await list({ q: tok, sort: 'downloads' });
        assert.deepEqual(slugs(env), [most.slug, many.slug, few.slug, none.slug]);
        assert.deepEqual(
          env.items.map((s) => s.downloads),
          [1_000_000, 250, 3, 0],
        );
        // latest is unaffected by download counts.
        assert.deepEqual(slugs(await list({ q: tok, sort: 'latest' })), [most.slug, none.slug, many.slug, few.slug]);
      });

      it('featured puts featured skills first, then latest', async () => {
        const tok = token();
        // The clock moves 5 ms between creations, so each skill has a later updated_at.
        const [a, b, c, d] = await withStoppedClock(async (advance) => {
          const created: SkillBody[] = [];
          for (const letter of ['A', 'B', 'C', 'D']) {
            created.push(await skill({ name: `Feat ${tok} ${letter}`, slug: `${tok}-${letter.toLowerCase()}` }));
            advance(5);
          }
          return created as [SkillBody, SkillBody, SkillBody, SkillBody];
        });
        await feature(a.id);
        await feature(c.id);
        const env = await list({ q: tok, sort: 'featured' });
        assert.deepEqual(slugs(env), [c.slug, a.slug, d.slug, b.slug]);
        assert.deepEqual(
          env.items.map((s) => s.featured),
          [true, true, false, false],
        );
        await feature(c.id, false);
        assert.deepEqual(slugs(await list({ q: tok, sort: 'featured' })), [a.slug, d.slug, c.slug, b.slug]);
      });

      it('breaks ties on id so paging never repeats or skips a skill', async () => {
        const tok = token();
        const created: SkillBody[] = [];
        for (let i = 0; i < 25; i += 1) created.push(await skill({ name: `Tie ${tok} ${i}`, slug: `${tok}-${i}` }));
        const ids = created.map((s) => s.id);
        // Identical sort keys for every sort: same downloads, same updated_at, same featured flag.
        await t.runtime.database.db
          .updateTable('skills')
          .set({ downloads: 7, updated_at: '2030-01-01T00:00:00.000Z' })
          .where('id', 'in', ids)
          .execute();
        for (const id of ids) t.runtime.services.skills.changedElsewhere(id);
        const expected = [...ids].sort().reverse(); // id descending
        for (const sort of ['downloads', 'latest', 'featured']) {
          const seen: string[] = [];
          for (let page = 1; page <= 5; page += 1) {
            const env = await list({ q: tok, sort, page, page_size: 7 });
            assert.equal(env.total, 25);
            assert.equal(env.page, page);
            assert.equal(env.page_size, 7);
            assert.equal(env.items.length, page < 4 ? 7 : page === 4 ? 4 : 0, `sort=${sort} page=${page}`);
            seen.push(...env.items.map((s) => s.id));
          }
          assert.equal(new Set(seen).size, seen.length, `sort=${sort}: a skill repeated across pages`);
          assert.deepEqual(seen, expected, `sort=${sort}: pages must follow id descending on ties`);
        }
      });

      it('refuses an unknown sort', async () => {
        for (const sort of ['name', 'popular', 'LATEST', '']) {
          expectProblem(await call(t, 'GET', `/v1/skills${queryString({ sort })}`), 400, 'validation_failed');
        }
      });
    });

    // ---------------------------------------------------------------------------------------------
    // Paging and the record
    // ---------------------------------------------------------------------------------------------

    describe('paging', () => {
      it('defaults to page 1 of 20 in the list envelope', async () => {
        const tok = token();
        await skill({ name: `Page ${tok}`, slug: `${tok}-page` });
        const res = expectStatus(await call(t, 'GET', '/v1/skills'), 200);
        assert.match(String(res.headers['content-type']), /^application\/json/);
        const env = json<Envelope>(res);
        assert.deepEqual(Object.keys(env).sort(), ['items', 'page', 'page_size', 'total']);
        assert.equal(env.page, 1);
        assert.equal(env.page_size, 20);
        assert.ok(env.total >= 1);
        assert.equal(env.items.length, Math.min(env.total, 20));
      });

      it('clamps page_size above 100 to 100', async () => {
        const tok = token();
        const cat = `many-${tok}`;
        for (let i = 0; i < 101; i += 1) await skill({ name: `Many ${tok} ${i}`, slug: `${tok}-${i}`, category: cat });
        for (const pageSize of [101, 500, 100000]) {
          const env = await list({ category: cat, page_size: pageSize });
          assert.equal(env.page_size, 100);
          assert.equal(env.total, 101);
          assert.equal(env.items.length, 100);
        }
        const second = await list({ category: cat, page_size: 500, page: 2 });
        assert.equal(second.items.length, 1);
        assert.equal(second.page, 2);
        const exact = await list({ category: cat, page_size: 100 });
        assert.equal(exact.page_size, 100);
        assert.equal(exact.items.length, 100);
      });

      it('refuses a page or page_size that is not a positive integer', async () => {
        const bad: Params[] = [
          { page: 0 },
          { page: -1 },
          { page: 1.5 },
          { page: 'abc' },
          { page: '' },
          { page: '1e3x' },
          { page_size: 0 },
          { page_size: -5 },
          { page_size: 2.5 },
          { page_size: 'ten' },
        ];
        for (const params of bad) {
          const body = expectProblem(await call(t, 'GET', `/v1/skills${queryString(params)}`), 400, 'validation_failed');
          const field = Object.keys(params)[0]!;
          assert.ok(JSON.stringify(body.errors).includes(field), `${JSON.stringify(params)}: ${JSON.stringify(body)}`);
        }
      });

      it('answers a page past the end with no items and the right total', async () => {
        const tok = token();
        for (let i = 0; i < 3; i += 1) await skill({ name: `End ${tok} ${i}`, slug: `${tok}-${i}` });
        const env = await list({ q: tok, page: 5, page_size: 2 });
        assert.deepEqual(env.items, []);
        assert.equal(env.total, 3);
        assert.equal(env.page, 5);
        assert.equal(env.page_size, 2);
        const last = await list({ q: tok, page: 2, page_size: 2 });
        assert.equal(last.items.length, 1);
        assert.equal(last.total, 3);
        const none = await list({ q: token(), page: 3 });
        assert.deepEqual(none, { items: [], page: 3, page_size: 20, total: 0, match: 'full' });
      });

      it('returns full skill records with downloads 0 and the version publishing gave them', async () => {
        const tok = token();
        const created = await createSkill(t, owner.session, {
          name: `Record ${tok}`,
          slug: `${tok}-record`,
          description: 'A full record',
          category: 'documents',
          tags: ['pdf', 'office'],
          source_type: 'github',
          source_url: 'https://github.com/acme/pdf-tools',
        });
        await setStatus(t, admin, created.id, 'published');
        const env = await list({ q: tok });
        assert.equal(env.items.length, 1);
        const s = env.items[0]!;
        assert.deepEqual(Object.keys(s).sort(), [
          'category',
          'created_at',
          'declined',
          'description',
          'downloads',
          'featured',
          'full_name',
          'hidden',
          'highlights',
          'id',
          'latest_version',
          'name',
          'owner',
          'private',
          'published_at',
          'quarantined',
          'scope',
          'slug',
          'source_type',
          'source_url',
          'status',
          'tags',
          'updated_at',
        ]);
        assert.equal(s.id, created.id);
        assert.equal(s.slug, `${tok}-record`);
        assert.equal(s.name, `Record ${tok}`);
        assert.equal(s.description, 'A full record');
        assert.equal(s.category, 'documents');
        assert.deepEqual([...s.tags].sort(), ['office', 'pdf']);
        assert.equal(s.status, 'published');
        assert.equal(s.hidden, false);
        assert.equal(s.featured, false);
        assert.equal(s.source_type, 'github');
        assert.equal(s.source_url, 'https://github.com/acme/pdf-tools');
        assert.deepEqual(s.owner, { kind: 'user', id: owner.id, handle: owner.username, username: owner.username });
        assert.equal(s.downloads, 0);
        // Publishing needs a version; setStatus gave it the smallest package there is.
        assert.equal(s.latest_version, '0.0.1');
        assert.equal(s.quarantined, false);
        assert.equal(s.declined, null);
        for (const stamp of [s.created_at, s.updated_at, s.published_at]) {
          assert.match(String(stamp), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        }
        // The list and the detail endpoint agree on the record; a search result adds where the words matched.
        const { highlights, ...record } = s as SkillBody & { highlights?: unknown };
        assert.ok(highlights !== undefined);
        assert.deepEqual(json<SkillBody>(expectStatus(await call(t, 'GET', `/v1/skills/${s.slug}`), 200)), record);
      });
    });

    // ---------------------------------------------------------------------------------------------
    // GET /v1/me/skills
    // ---------------------------------------------------------------------------------------------

    describe('GET /v1/me/skills', () => {
      let me: TestUser;
      let other: TestUser;
      let tok: string;
      let mine: { draft: SkillBody; published: SkillBody; deprecated: SkillBody };

      before(async () => {
        me = await registerUser(t);
        other = await registerUser(t);
        tok = token();
        const draft = await skill(
          { name: `Mine ${tok} draft`, slug: `${tok}-draft`, description: 'Unfinished work' },
          { by: me.session, publish: false },
        );
        const published = await skill(
          { name: `Mine ${tok} published`, slug: `${tok}-published`, description: 'Shipped' },
          { by: me.session },
        );
        const deprecated = await skill(
          { name: `Mine ${tok} deprecated`, slug: `${tok}-deprecated`, description: 'Old' },
          { by: me.session },
        );
        await setStatus(t, admin, deprecated.id, 'deprecated');
        mine = { draft, published, deprecated };
        await skill({ name: `Theirs ${tok} draft`, slug: `${tok}-theirs-draft` }, { by: other.session, publish: false });
        await skill({ name: `Theirs ${tok} published`, slug: `${tok}-theirs-published` }, { by: other.session });
      });

      it("lists only the caller's skills, in every state, by session or API key", async () => {
        const key = await createKey(t, me.session);
        const readKey = await createKey(t, me.session, []);
        const expected = [mine.draft.slug, mine.published.slug, mine.deprecated.slug].sort();
        for (const auth of [me.session, key, readKey] as Auth[]) {
          const env = await list({}, auth, '/v1/me/skills');
          assert.equal(env.total, 3);
          assert.equal(env.page, 1);
          assert.equal(env.page_size, 20);
          assert.deepEqual(sortedSlugs(env), expected);
          for (const s of env.items) assert.equal(s.owner.id, me.id);
        }
        const theirs = await list({ q: tok }, other.session, '/v1/me/skills');
        assert.deepEqual(sortedSlugs(theirs), [`${tok}-theirs-draft`, `${tok}-theirs-published`]);
      });

      it('honours the status filter', async () => {
        assert.deepEqual(slugs(await list({ status: 'draft' }, me.session, '/v1/me/skills')), [mine.draft.slug]);
        assert.deepEqual(slugs(await list({ status: 'published' }, me.session, '/v1/me/skills')), [mine.published.slug]);
        assert.deepEqual(slugs(await list({ status: 'deprecated' }, me.session, '/v1/me/skills')), [mine.deprecated.slug]);
        assert.equal((await list({ status: 'all' }, me.session, '/v1/me/skills')).total, 3);
        expectProblem(await call(t, 'GET', '/v1/me/skills?status=bogus', me.session), 400, 'validation_failed');
      });

      it('supports search, filters, sorts and paging', async () => {
        assert.deepEqual(slugs(await list({ q: 'unfinished' }, me.session, '/v1/me/skills')), [mine.draft.slug]);
        assert.deepEqual(slugs(await list({ keyword: `${tok} OLD` }, me.session, '/v1/me/skills')), [mine.deprecated.slug]);
        assert.deepEqual(slugs(await list({ q: 'theirs' }, me.session, '/v1/me/skills')), []);
        assert.deepEqual(slugs(await list({ q: `${tok} draft`, status: 'draft' }, me.session, '/v1/me/skills')), [mine.draft.slug]);
        const page = await list({ page: 2, page_size: 2, sort: 'latest' }, me.session, '/v1/me/skills');
        assert.equal(page.total, 3);
        assert.equal(page.items.length, 1);
        expectProblem(await call(t, 'GET', '/v1/me/skills?sort=bogus', me.session), 400, 'validation_failed');
        expectProblem(await call(t, 'GET', '/v1/me/skills?page=0', me.session), 400, 'validation_failed');
      });

      it('needs credentials', async () => {
        expectProblem(await call(t, 'GET', '/v1/me/skills'), 401, 'unauthenticated');
        expectProblem(await call(t, 'GET', '/v1/me/skills', { key: 'skreg_notarealkey' }), 401, 'unauthenticated');
      });
    });
  });
}
