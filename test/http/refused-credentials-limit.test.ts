import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InjectOptions } from 'fastify';
import { startApp, type TestApp } from '../helpers/app.js';
import { apiBackends } from '../helpers/backends.js';
import { expectProblem, registerUser } from '../helpers/client.js';
import { ifSet } from '../helpers/hooks.js';

/**
 * Requests whose credentials are refused are counted against the rate limits like any other (per address, as the
 * caller is then anonymous): guessing or replaying keys is bounded, and so is the database work each one costs.
 * The app's onRequest hook counts every request after authentication, a refused one included (src/app.ts).
 */

const READS = 5;
const WRITES = 4;

for (const backend of apiBackends()) {
  describe(`rate limits for refused credentials [${backend.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await startApp(backend, { RATE_LIMIT: 'on', RATE_LIMIT_READS: String(READS), RATE_LIMIT_WRITES: String(WRITES) });
    });
    after(() => ifSet(t)?.close());

    let address = 0;
    const send = (method: InjectOptions['method'], url: string, ip: string, authorization: string, payload?: unknown) =>
      t.request({
        method,
        url,
        remoteAddress: ip,
        headers: { authorization },
        payload: payload as InjectOptions['payload'],
      });

    for (const [what, authorization] of [
      ['an unknown API key', 'Bearer skreg_0000000000000000000000000000000000000000000'],
      ['a malformed Authorization header', 'Basic dXNlcjpwYXNz'],
    ] as const) {
      it(`answers 401 to ${what} only up to the reads limit, then 429`, async () => {
        address += 1;
        const ip = `10.77.0.${address}`;
        for (let i = 0; i < READS; i += 1) {
          const res = await send('GET', '/v1/skills', ip, authorization);
          expectProblem(res, 401, 'unauthenticated');
          assert.equal(res.headers['ratelimit-remaining'], String(READS - 1 - i));
        }
        const limited = expectProblem(await send('GET', '/v1/skills', ip, authorization), 429, 'rate_limited');
        assert.match(String(limited.detail), /requests per IP address/);
        // Another client is not affected.
        expectProblem(await send('GET', '/v1/skills', `10.78.0.${address}`, authorization), 401, 'unauthenticated');
      });
    }

    it('counts refused writes per address in the writes bucket, and a valid caller from elsewhere keeps its allowance', async () => {
      const ip = '10.79.0.1';
      for (let i = 0; i < WRITES; i += 1) {
        expectProblem(await send('POST', '/v1/skills', ip, 'Bearer skreg_unknown', { name: 'x' }), 401, 'unauthenticated');
      }
      expectProblem(await send('POST', '/v1/skills', ip, 'Bearer skreg_unknown', { name: 'x' }), 429, 'rate_limited');
      const alice = await registerUser(t);
      const res = await t.request({
        method: 'GET',
        url: '/v1/me',
        remoteAddress: '10.79.0.2',
        headers: { cookie: `session_token=${alice.session.cookie}` },
      });
      assert.equal(res.statusCode, 200, res.body);
    });
  });
}
