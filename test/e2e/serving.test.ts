/**
 * How the registry serves the web console: pages, assets, headers, what stays the API's, and what a
 * registry without a built console answers. No browser needed: requests are injected.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import Fastify from 'fastify';
import { loadConfig } from '../../src/config.js';
import { installErrorHandling, installNotFound } from '../../src/http/plugins/errors.js';
import { CONSOLE_CSP, installConsole } from '../../src/http/routes/console.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { adminSession, call, expectProblem, json } from '../helpers/client.js';
import { ensureConsoleBuilt } from './harness.js';
import { ifSet } from '../helpers/hooks.js';

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

for (const backend of backends()) {
  describe(`console serving (${backend.name})`, () => {
    let t: TestApp;

    before(async () => {
      await ensureConsoleBuilt();
      t = await startApp(backend, { MAX_UPLOAD_BYTES: '1234567', REGISTRATION: 'closed' });
    });
    after(() => ifSet(t)?.close());

    test('every console path a browser opens gets the page, with a strict CSP and no caching', async () => {
      for (const url of ['/', '/skills/pdf-tools?tab=files&file=SKILL.md', '/me/keys', '/admin/users', '/no/such/page']) {
        const res = await call(t, 'GET', url, null, undefined, HTML);
        assert.equal(res.statusCode, 200, url);
        assert.match(String(res.headers['content-type']), /^text\/html/);
        assert.equal(res.headers['content-security-policy'], CONSOLE_CSP);
        assert.equal(res.headers['cache-control'], 'no-cache');
        assert.equal(res.headers['x-content-type-options'], 'nosniff');
        assert.equal(res.headers['x-frame-options'], 'DENY');
        assert.match(res.body, /<div id="root"><\/div>/);
        // No inline script: everything runs from the registry's own files.
        assert.doesNotMatch(res.body, /<script(?![^>]*\bsrc=)[^>]*>/);
      }
      assert.match(CONSOLE_CSP, /script-src 'self'(;|$)/);
      assert.doesNotMatch(CONSOLE_CSP, /unsafe-inline|unsafe-eval/);
    });

    test('the page tells the console the upload limit and whether registration is open', async () => {
      const res = await call(t, 'GET', '/', null, undefined, HTML);
      assert.match(res.body, /<meta name="skreg:max-upload-bytes" content="1234567" \/>/);
      assert.match(res.body, /<meta name="skreg:registration" content="closed" \/>/);
    });

    test('hashed assets are cached for good; other static files briefly; missing ones are a 404 problem', async () => {
      const page = await call(t, 'GET', '/', null, undefined, HTML);
      const script = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"/.exec(page.body)?.[1];
      const style = /<link rel="stylesheet" crossorigin href="(\/assets\/[^"]+\.css)"/.exec(page.body)?.[1];
      assert.ok(script && style, 'the page names its script and style');
      const js = await call(t, 'GET', script);
      assert.equal(js.statusCode, 200);
      assert.match(String(js.headers['content-type']), /javascript/);
      assert.equal(js.headers['cache-control'], 'public, max-age=31536000, immutable');
      const css = await call(t, 'HEAD', style);
      assert.equal(css.statusCode, 200);
      assert.match(String(css.headers['content-type']), /text\/css/);
      const icon = await call(t, 'GET', '/favicon.svg');
      assert.equal(icon.statusCode, 200);
      assert.equal(icon.headers['cache-control'], 'public, max-age=3600');
      expectProblem(await call(t, 'GET', '/assets/index-missing.js'), 404, 'not_found');
    });

    test('the API keeps its paths: unknown /v1 routes, writes and non-HTML requests are problem documents', async () => {
      expectProblem(await call(t, 'GET', '/v1/no-such-endpoint', null, undefined, HTML), 404, 'not_found');
      expectProblem(await call(t, 'GET', '/v1', null, undefined, HTML), 404, 'not_found');
      expectProblem(await call(t, 'GET', '/'), 404, 'not_found');
      expectProblem(await call(t, 'GET', '/skills/pdf-tools', null, undefined, { accept: 'application/json' }), 404, 'not_found');
      expectProblem(await call(t, 'POST', '/', null, { a: 1 }, HTML), 404, 'not_found');
      const health = await call(t, 'GET', '/healthz', null, undefined, HTML);
      assert.deepEqual(json(health), { status: 'ok' });
      const metrics = await call(t, 'GET', '/metrics', null, undefined, HTML);
      assert.match(String(metrics.headers['content-type']), /^text\/plain/);
      const openapi = json<{ paths: Record<string, unknown> }>(await call(t, 'GET', '/v1/openapi.json'));
      assert.deepEqual(
        // Besides /v1: operations, and what other tools ask for at the paths they know (Agent Skills discovery under
        // a skill's page and the root, and the search `skills find` calls).
        Object.keys(openapi.paths).filter(
          (p) =>
            !p.startsWith('/v1/') &&
            !['/healthz', '/readyz', '/metrics', '/api/search'].includes(p) &&
            !/^(?:\/skills\/.+)?\/\.well-known\/(?:agent-skills|skills)\//.test(p) &&
            // The ClawHub protocol, where the `clawhub` command line looks for it.
            !/^\/(?:api\/v1\/|api\/cli\/|\.well-known\/claw(?:d)?hub\.json$)/.test(p),
        ),
        [],
      );
      const docs = await call(t, 'GET', '/docs/', null, undefined, HTML);
      assert.equal(docs.statusCode, 200);
      assert.notEqual(docs.headers['content-security-policy'], CONSOLE_CSP);
    });

    test("page and asset loads are not the signed-in user's API calls: the call log keeps /v1 only", async () => {
      // Registration is closed on this registry; the administrator is a signed-in user like any other.
      const session = await adminSession(t);
      const page = await call(t, 'GET', '/me/logs', session, undefined, HTML);
      assert.equal(page.statusCode, 200);
      const script = /src="(\/assets\/[^"]+\.js)"/.exec(page.body)![1]!;
      const asset = await call(t, 'GET', script, session);
      assert.equal(asset.statusCode, 200);
      // Static files skip credential handling altogether: a stale cookie is not even looked at there.
      const stale = await call(t, 'GET', script, { cookie: 'not-a-session' });
      assert.equal(stale.headers['set-cookie'], undefined);
      assert.equal((await call(t, 'GET', '/v1/me', session)).statusCode, 200);
      const logs = json<{ items: { path: string }[] }>(await call(t, 'GET', '/v1/logs?page_size=100', session));
      assert.deepEqual(
        logs.items.map((entry) => entry.path),
        ['/v1/me'],
      );
    });
  });
}

describe('console serving without a built console', () => {
  const empty = mkdtempSync(path.join(tmpdir(), 'skreg-console-'));
  after(() => rmSync(empty, { recursive: true, force: true }));

  test('pages answer 503 saying how to build it, and the API is untouched', async () => {
    const app = Fastify();
    installErrorHandling(app);
    app.get('/v1/ping', () => ({ ok: true }));
    installNotFound(app, await installConsole(app, loadConfig({ LOG_LEVEL: 'silent' }), { dir: empty }));
    const page = await app.inject({ method: 'GET', url: '/skills/x', headers: HTML });
    assert.equal(page.statusCode, 503);
    assert.match(String(page.headers['content-type']), /^text\/plain/);
    assert.match(page.body, /npm run build/);
    assert.equal((await app.inject({ method: 'GET', url: '/v1/ping', headers: HTML })).json<{ ok: boolean }>().ok, true);
    const missing = await app.inject({ method: 'GET', url: '/v1/nope', headers: HTML });
    assert.equal(missing.statusCode, 404);
    assert.match(String(missing.headers['content-type']), /^application\/problem\+json/);
    await app.close();
  });
});
