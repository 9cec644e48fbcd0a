import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startApp, type TestApp } from '../helpers/app.js';
import { multipart, skillMd, zip } from '../helpers/archives.js';
import { apiBackends } from '../helpers/backends.js';
import { authHeaders, createKey, createSkill, expectProblem, json, registerUser } from '../helpers/client.js';

const TOKEN = 'metrics-token-0123456789';

function metrics(t: TestApp, remoteAddress: string, headers: Record<string, string> = {}) {
  return t.request({ method: 'GET', url: '/metrics', remoteAddress, headers });
}

for (const backend of apiBackends()) {
  describe(`/metrics access [${backend.name}]`, () => {
    const apps: TestApp[] = [];
    const start = async (env: Record<string, string>) => {
      const t = await startApp(backend, env);
      apps.push(t);
      return t;
    };
    after(async () => {
      for (const t of apps) await t.close();
    });

    it('is open to everyone without METRICS_TOKEN and METRICS_ALLOW', async () => {
      const t = await start({});
      for (const address of ['127.0.0.1', '203.0.113.9', '2001:db8::1']) assert.equal((await metrics(t, address)).statusCode, 200);
    });

    it('with METRICS_TOKEN: 401 without the token or with a wrong one, 200 with it', async () => {
      const t = await start({ METRICS_TOKEN: TOKEN });
      const missing = expectProblem(await metrics(t, '127.0.0.1'), 401, 'unauthenticated');
      assert.match(String(missing.detail), /Bearer/);
      assert.equal((await metrics(t, '127.0.0.1')).headers['www-authenticate'], 'Bearer realm="metrics"');
      expectProblem(await metrics(t, '127.0.0.1', { authorization: `Bearer ${TOKEN}x` }), 401, 'unauthenticated');
      expectProblem(await metrics(t, '127.0.0.1', { authorization: `Basic ${TOKEN}` }), 401, 'unauthenticated');
      // A registry API key is not the metrics token (and is not looked up as one).
      expectProblem(await metrics(t, '127.0.0.1', { authorization: 'Bearer skreg_some_key' }), 401, 'unauthenticated');
      const ok = await metrics(t, '203.0.113.9', { authorization: `Bearer ${TOKEN}` });
      assert.equal(ok.statusCode, 200);
      assert.match(ok.body, /http_requests_total/);
    });

    it('with METRICS_ALLOW: 403 from other addresses, 200 from listed addresses and ranges (IPv4 and IPv6)', async () => {
      const t = await start({ METRICS_ALLOW: '10.0.0.0/8, 192.168.1.7, ::1, fd00::/8' });
      for (const address of ['10.1.2.3', '192.168.1.7', '::1', 'fd12::5', '::ffff:10.9.9.9']) {
        assert.equal((await metrics(t, address)).statusCode, 200, address);
      }
      for (const address of ['127.0.0.1', '192.168.1.8', '11.0.0.1', '2001:db8::1']) {
        const body = expectProblem(await metrics(t, address), 403, 'forbidden');
        assert.match(String(body.detail), /METRICS_ALLOW/);
      }
      // A token means nothing when none is configured.
      expectProblem(await metrics(t, '127.0.0.1', { authorization: `Bearer ${TOKEN}` }), 403, 'forbidden');
    });

    it('with both, either admits; neither gets 401', async () => {
      const t = await start({ METRICS_ALLOW: '10.0.0.0/8', METRICS_TOKEN: TOKEN });
      assert.equal((await metrics(t, '10.0.0.1')).statusCode, 200);
      assert.equal((await metrics(t, '127.0.0.1', { authorization: `Bearer ${TOKEN}` })).statusCode, 200);
      expectProblem(await metrics(t, '127.0.0.1'), 401, 'unauthenticated');
    });

    it('behind a proxy (TRUST_PROXY=true), judges the client address the proxy reports', async () => {
      const t = await start({ METRICS_ALLOW: '10.0.0.0/8', TRUST_PROXY: 'true' });
      assert.equal((await metrics(t, '127.0.0.1', { 'x-forwarded-for': '10.2.3.4' })).statusCode, 200);
      expectProblem(await metrics(t, '10.0.0.1', { 'x-forwarded-for': '198.51.100.1' }), 403, 'forbidden');
    });

    it('leaves health and readiness open', async () => {
      const t = await start({ METRICS_TOKEN: TOKEN, METRICS_ALLOW: '10.0.0.0/8' });
      assert.equal((await t.request({ method: 'GET', url: '/healthz' })).statusCode, 200);
      assert.equal((await t.request({ method: 'GET', url: '/readyz' })).statusCode, 200);
    });
  });

  describe(`/readyz and uploads below the free-space floor [${backend.name}]`, () => {
    let t: TestApp;
    before(async () => {
      // No disk has this much free: the floor is always above what there is.
      t = await startApp(backend, { STORAGE_MIN_FREE_BYTES: String(Number.MAX_SAFE_INTEGER) });
    });
    after(() => t.close());

    it('reports not ready, naming the package store and its free space', async () => {
      const body = expectProblem(await t.request({ method: 'GET', url: '/readyz' }), 503, 'not_ready');
      assert.match(String(body.detail), /^The package store has [\d.]+ MiB free, below the/);
      assert.match(String(body.detail), /STORAGE_MIN_FREE_BYTES/);
      assert.deepEqual(
        (body.errors as { field: string }[]).map((e) => e.field),
        ['blobs'],
      );
    });

    it('refuses uploads and validations with 507 before reading them, and keeps serving reads', async () => {
      const alice = await registerUser(t);
      const key = await createKey(t, alice.session);
      const skill = await createSkill(t, key);
      const form = multipart({ version: '1.0.0' }, { content: await zip([{ path: 'SKILL.md', content: skillMd() }]) });
      const upload = await t.request({
        method: 'POST',
        url: `/v1/skills/${skill.slug}/versions`,
        headers: { ...authHeaders(key), ...form.headers },
        payload: form.payload,
      });
      assert.match(String(expectProblem(upload, 507, 'insufficient_storage').detail), /STORAGE_MIN_FREE_BYTES/);
      const validate = multipart({}, { content: await zip([{ path: 'SKILL.md', content: skillMd() }]) });
      expectProblem(
        await t.request({ method: 'POST', url: '/v1/packages/validate', headers: validate.headers, payload: validate.payload }),
        507,
        'insufficient_storage',
      );
      const read = await t.request({ method: 'GET', url: `/v1/skills/${skill.slug}`, headers: authHeaders(key) });
      assert.equal(json(read).slug, skill.slug);
    });
  });

  describe(`/readyz without a floor [${backend.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await startApp(backend, { STORAGE_MIN_FREE_BYTES: '0' });
    });
    after(() => t.close());

    it('is ready whatever the free space', async () => {
      assert.deepEqual(json(await t.request({ method: 'GET', url: '/readyz' })), { status: 'ok', checks: { database: 'ok', blobs: 'ok' } });
    });
  });
}
