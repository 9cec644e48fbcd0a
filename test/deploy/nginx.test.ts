// deploy/nginx.conf, run by the real nginx in front of a real registry: an answer to a request with credentials (an
// owner's draft) is never stored nor served to anyone else, however the credentials are spelled, and anonymous
// public reads are still cached. Requests are written on raw sockets so their header bytes are exactly as shown.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startApp, type TestApp } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { adminSession, createKey, createSkill, registerUser, setStatus, type SkillBody } from '../helpers/client.js';
import { ifSet } from '../helpers/hooks.js';
import { findNginx, startNginx, type NginxProxy } from './nginx-proxy.js';
import { getRequest, header, rawRequest, type RawAnswer } from './raw-http.js';

const NGINX = findNginx();
if (NGINX === null && process.env.CI === 'true') {
  throw new Error('CI=true and nginx is not installed: the proxy configuration must be tested (apt-get install nginx).');
}
const SKIP = NGINX === null ? 'nginx is not installed (Debian: apt-get install nginx); deploy/nginx.conf is not tested here' : false;

/** What nginx answered from: only a MISS means it found nothing stored under the URL. */
const cacheStatus = (answer: RawAnswer) => header(answer, 'x-cache-status');

/**
 * Asks twice in a row (the second time with `secondLines`) until the second is answered from the cache. The
 * shipped lifetime is one second, so a pair of requests that a slow machine spreads over more than that may find
 * the entry expired; a few pairs are enough, and a proxy that does not cache never gets there.
 */
async function secondIsHit(port: number, path: string, secondLines: string[] = []): Promise<{ first: RawAnswer; second: RawAnswer }> {
  const seen: string[] = [];
  for (let attempt = 0; attempt < 5; attempt++) {
    const first = await rawRequest(port, getRequest(path));
    const second = await rawRequest(port, getRequest(path, secondLines));
    if (cacheStatus(second) === 'HIT') return { first, second };
    seen.push(`${cacheStatus(first)} then ${cacheStatus(second)}`);
  }
  assert.fail(`${path} was never answered from the cache on a second request: ${seen.join(', ')}`);
}

for (const backend of backends()) {
  describe(`deploy/nginx.conf in front of the registry (${backend.name})`, { skip: SKIP, timeout: 120_000 }, () => {
    let t: TestApp;
    let proxy: NginxProxy;
    let owner: Awaited<ReturnType<typeof registerUser>>;
    let key: string;

    before(async () => {
      t = await startApp(backend);
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      proxy = await startNginx(NGINX!, `127.0.0.1:${(t.app.server.address() as AddressInfo).port}`);
      owner = await registerUser(t);
      key = (await createKey(t, owner.session)).key;
    });

    after(async () => {
      await ifSet(proxy)?.stop();
      await ifSet(t)?.close();
    });

    /** Credentials as clients may spell them; the registry accepts every one (the owner's 200 below shows it). */
    const spellings: { name: string; lines: () => string[] }[] = [
      { name: 'the session cookie after a TAB', lines: () => [`Cookie: theme=dark;\tsession_token=${owner.session.cookie}`] },
      {
        name: 'the session cookie in a second Cookie header',
        lines: () => ['Cookie: theme=dark', `Cookie: session_token=${owner.session.cookie}`],
      },
      {
        name: 'a lower-case header, no space after the colon, spaces around the cookie',
        lines: () => [`cookie:theme=dark ;   session_token = ${owner.session.cookie} ;lang=en`],
      },
      {
        name: 'the session cookie without a space after the semicolon',
        lines: () => [`Cookie: a=1;session_token=${owner.session.cookie}`],
      },
      { name: 'Authorization: Bearer <key>', lines: () => [`Authorization: Bearer ${key}`] },
      { name: 'authorization:bearer <key>', lines: () => [`authorization:bearer ${key}`] },
      { name: 'AUTHORIZATION with tabs and odd case', lines: () => [`AUTHORIZATION:\tbEaReR\t  ${key}`] },
    ];

    for (const spelling of spellings) {
      it(`an owner's draft asked with ${spelling.name} is passed through, and an anonymous caller then gets 404`, async () => {
        // A draft of its own, so that an answer wrongly stored here cannot make another spelling's check fail.
        const draft = await createSkill(t, owner.session);
        assert.equal(draft.status, 'draft');
        for (const url of [`/v1/skills/${draft.slug}`, `/v1/skills/${draft.slug}/versions`, `/v1/skills/${draft.id}`]) {
          const owned = await rawRequest(proxy.port, getRequest(url, spelling.lines()));
          // The registry took the credentials (the draft is visible only to its owner), so the check below means something.
          assert.equal(owned.status, 200, `${url} with ${spelling.name}: ${owned.body}`);
          if (!url.endsWith('/versions')) assert.equal((JSON.parse(owned.body) as SkillBody).id, draft.id);
          assert.equal(cacheStatus(owned), 'BYPASS', `${url} with ${spelling.name} must neither read nor fill the cache`);

          const anonymous = await rawRequest(proxy.port, getRequest(url));
          assert.equal(anonymous.status, 404, `${url} anonymously after ${spelling.name}: ${anonymous.body}`);
          assert.ok(!anonymous.body.includes(draft.name), "the owner's answer must never reach an anonymous caller");
          assert.equal(cacheStatus(anonymous), 'MISS', `nothing may be stored under ${url} by a request with ${spelling.name}`);
        }
      });
    }

    it('a HEAD with credentials is passed through too', async () => {
      const draft = await createSkill(t, owner.session);
      const owned = await rawRequest(
        proxy.port,
        getRequest(`/v1/skills/${draft.slug}`, [`Cookie: x=y;\tsession_token=${owner.session.cookie}`], 'HEAD'),
      );
      assert.equal(owned.status, 200);
      assert.equal(cacheStatus(owned), 'BYPASS');
      const anonymous = await rawRequest(proxy.port, getRequest(`/v1/skills/${draft.slug}`));
      assert.equal(anonymous.status, 404);
      assert.equal(cacheStatus(anonymous), 'MISS');
    });

    it('a cookie named session_token in another case is passed through as well (the registry ignores it)', async () => {
      const draft = await createSkill(t, owner.session);
      const answer = await rawRequest(proxy.port, getRequest(`/v1/skills/${draft.slug}`, ['Cookie: Session_Token=stale']));
      assert.equal(answer.status, 404);
      assert.equal(cacheStatus(answer), 'BYPASS');
    });

    it('anonymous reads of a published skill, its versions and the list are cached', async () => {
      const published = await createSkill(t, owner.session);
      await setStatus(t, await adminSession(t), published.slug, 'published');
      for (const url of [`/v1/skills/${published.slug}`, `/v1/skills/${published.slug}/versions`, '/v1/skills?limit=5']) {
        const { first, second } = await secondIsHit(proxy.port, url);
        assert.equal(second.status, 200);
        assert.equal(second.body, first.body);
        // Answered by the proxy: the node's request id is the one of the request that filled the entry (when the
        // first of the pair did; after a retry it may have been answered from an expired entry instead).
        if (cacheStatus(first) === 'MISS') assert.equal(header(second, 'x-request-id'), header(first, 'x-request-id'));
      }
      // A conditional read is answered from the cache too.
      const detail = `/v1/skills/${published.slug}`;
      const etag = header(await rawRequest(proxy.port, getRequest(detail)), 'etag');
      assert.ok(etag !== undefined);
      const { second: unchanged } = await secondIsHit(proxy.port, detail, [`If-None-Match: ${etag}`]);
      assert.equal(unchanged.status, 304);
      // Downloads are counted by the node that serves them, so they always reach one.
      for (let i = 0; i < 2; i++) {
        const download = await rawRequest(proxy.port, getRequest(`${detail}/versions/0.0.1/download`));
        assert.equal(download.status, 200);
        assert.equal(cacheStatus(download), undefined);
      }
      // The same read with credentials still goes to a node.
      const owned = await rawRequest(proxy.port, getRequest(`/v1/skills/${published.slug}`, [`Authorization: Bearer ${key}`]));
      assert.equal(owned.status, 200);
      assert.equal(cacheStatus(owned), 'BYPASS');
    });
  });
}

/**
 * What nginx does with an answer's own headers, shown by an upstream that sends exactly them: nothing marked
 * private, no-store or no-cache, and nothing that sets a cookie, is stored, whatever proxy_cache_valid says.
 */
describe('deploy/nginx.conf and the headers of an answer', { skip: SKIP, timeout: 60_000 }, () => {
  const ANSWERS: Record<string, Record<string, string>> = {
    '/v1/skills/plain': {},
    '/v1/skills/private': { 'cache-control': 'private' },
    '/v1/skills/no-store': { 'cache-control': 'no-store' },
    '/v1/skills/no-cache': { 'cache-control': 'no-cache' },
    '/v1/skills/private-no-store': { 'cache-control': 'private, no-store' },
    '/v1/skills/sets-cookie': { 'set-cookie': 'session_token=; Path=/; Max-Age=0' },
  };
  const reached = new Map<string, number>();
  const upstream = http.createServer((req, res) => {
    const url = req.url ?? '';
    reached.set(url, (reached.get(url) ?? 0) + 1);
    const extra = ANSWERS[url];
    if (extra === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', ...extra }).end(JSON.stringify({ url, n: reached.get(url) }));
  });
  let proxy: NginxProxy;

  before(async () => {
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    proxy = await startNginx(NGINX!, `127.0.0.1:${(upstream.address() as AddressInfo).port}`);
  });

  after(async () => {
    await ifSet(proxy)?.stop();
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
  });

  it('an answer without such headers is cached (the upstream here is cacheable at all)', async () => {
    await secondIsHit(proxy.port, '/v1/skills/plain');
  });

  for (const url of Object.keys(ANSWERS).filter((u) => u !== '/v1/skills/plain')) {
    it(`${url} (${JSON.stringify(ANSWERS[url])}) is never stored`, async () => {
      const first = await rawRequest(proxy.port, getRequest(url));
      const second = await rawRequest(proxy.port, getRequest(url));
      assert.equal(first.status, 200);
      assert.equal(second.status, 200);
      assert.equal(cacheStatus(second), 'MISS', 'nothing was stored by the first request');
      assert.equal(reached.get(url), 2);
      assert.notEqual(second.body, first.body);
    });
  }
});
