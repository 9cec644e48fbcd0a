import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startApp, type TestApp } from '../helpers/app.js';
import { apiBackends } from '../helpers/backends.js';
import { adminSession, call, expectProblem, expectStatus, giveVersion, json, registerUser } from '../helpers/client.js';

for (const backend of apiBackends()) {
  describe(`foundation [${backend.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await startApp(backend);
    });
    after(() => t.close());

    it('answers health and readiness', async () => {
      assert.deepEqual(json(expectStatus(await call(t, 'GET', '/healthz'), 200)), { status: 'ok' });
      assert.deepEqual(json(expectStatus(await call(t, 'GET', '/readyz'), 200)), { status: 'ok', checks: { database: 'ok', blobs: 'ok' } });
    });

    it('puts a unique X-Request-Id on every response, errors included', async () => {
      const ids = new Set<string>();
      for (const url of ['/healthz', '/v1/skills', '/v1/nothing-here', '/v1/skills/unknown']) {
        const res = await call(t, 'GET', url);
        const id = res.headers['x-request-id'];
        assert.equal(typeof id, 'string');
        assert.match(String(id), /^[0-9a-f-]{36}$/);
        ids.add(String(id));
      }
      assert.equal(ids.size, 4);
    });

    it('ignores a client-supplied request id', async () => {
      const res = await call(t, 'GET', '/healthz', null, undefined, { 'x-request-id': 'chosen-by-client' });
      assert.notEqual(res.headers['x-request-id'], 'chosen-by-client');
    });

    it('answers unknown routes with a problem document', async () => {
      const body = expectProblem(await call(t, 'GET', '/v1/does-not-exist'), 404, 'not_found');
      assert.match(String(body.detail), /GET \/v1\/does-not-exist/);
      expectProblem(await call(t, 'DELETE', '/v1/skills'), 404, 'not_found');
    });

    it('refuses malformed JSON with invalid_json', async () => {
      const res = await call(t, 'POST', '/v1/auth/register', null, '{"username": "x",', { 'content-type': 'application/json' });
      expectProblem(res, 400, 'invalid_json');
    });

    it('refuses an empty JSON body with invalid_json', async () => {
      const res = await call(t, 'POST', '/v1/auth/login', null, '', { 'content-type': 'application/json' });
      expectProblem(res, 400, 'invalid_json');
    });

    it('refuses a body that is not JSON with 415', async () => {
      const res = await call(t, 'POST', '/v1/auth/login', null, 'login=a&password=b', {
        'content-type': 'application/x-www-form-urlencoded',
      });
      expectProblem(res, 415, 'unsupported_media_type');
      expectProblem(
        await call(t, 'POST', '/v1/auth/login', null, 'hello', { 'content-type': 'text/plain' }),
        415,
        'unsupported_media_type',
      );
    });

    it('refuses a JSON body over 1 MiB with 413', async () => {
      const big = JSON.stringify({ login: 'a', password: 'x'.repeat(1024 * 1024) });
      expectProblem(await call(t, 'POST', '/v1/auth/login', null, big, { 'content-type': 'application/json' }), 413, 'payload_too_large');
    });

    it('reports schema violations field by field', async () => {
      const res = await call(t, 'POST', '/v1/auth/register', null, { username: 5, email: 'a@b.co', password: 'password', extra: true });
      const body = expectProblem(res, 400, 'validation_failed');
      const fields = (body.errors as { field: string }[]).map((e) => e.field).sort();
      assert.deepEqual(fields, ['extra', 'username']);
    });

    it('refuses NUL characters in paths, query strings and bodies with 400', async () => {
      expectProblem(await call(t, 'GET', '/v1/skills/pdf%00tools'), 400, 'validation_failed');
      expectProblem(await call(t, 'GET', '/v1/skills?q=a%00b'), 400, 'validation_failed');
      const user = await registerUser(t);
      const body = expectProblem(await call(t, 'POST', '/v1/skills', user.session, { name: 'nul\u0000name' }), 400, 'validation_failed');
      assert.deepEqual(body.errors, [{ field: 'name', message: 'must not contain NUL characters' }]);
    });

    it('reports a missing body on a JSON endpoint as a validation failure', async () => {
      const body = expectProblem(await call(t, 'POST', '/v1/auth/login'), 400, 'validation_failed');
      assert.ok(Array.isArray(body.errors));
    });

    it('never leaks internals in a 500', async () => {
      // Closing the database under a live app makes the next query fail the way a real outage would.
      const broken = await startApp(backend);
      await broken.runtime.database.close();
      // A skill's detail reads the database (lists and searches are answered by the in-memory index).
      const res = await call(broken, 'GET', '/v1/skills/no-such-skill-here');
      const body = expectProblem(res, 500, 'internal_error');
      assert.match(String(body.detail), new RegExp(String(res.headers['x-request-id'])));
      expectProblem(await call(broken, 'GET', '/readyz'), 503, 'not_ready');
      await broken.runtime.app.close();
    });

    it('serves Prometheus metrics by route pattern, method and status', async () => {
      await call(t, 'GET', '/v1/skills/some-missing-skill');
      const res = expectStatus(await call(t, 'GET', '/metrics'), 200);
      assert.match(String(res.headers['content-type']), /^text\/plain/);
      assert.match(res.body, /http_requests_total\{method="GET",route="\/v1\/skills\/:skillId",status_code="404"\} \d+/);
      assert.match(
        res.body,
        /http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/v1\/skills\/:skillId",status_code="404"\}/,
      );
      assert.match(res.body, /process_cpu_user_seconds_total/);
    });

    it('publishes an OpenAPI 3.1 document listing every endpoint with its schemas', async () => {
      const doc = json<{
        openapi: string;
        paths: Record<string, Record<string, { responses: Record<string, unknown>; requestBody?: unknown }>>;
        components: { schemas: Record<string, unknown> };
      }>(expectStatus(await call(t, 'GET', '/v1/openapi.json'), 200));
      assert.equal(doc.openapi, '3.1.0');
      const expected: [string, string][] = [
        ['get', '/v1/skills'],
        ['post', '/v1/skills'],
        ['get', '/v1/skills/{skillId}'],
        ['patch', '/v1/skills/{skillId}'],
        ['delete', '/v1/skills/{skillId}'],
        ['post', '/v1/skills/{skillId}/publish'],
        ['post', '/v1/skills/{skillId}/deprecate'],
        ['post', '/v1/auth/register'],
        ['post', '/v1/auth/login'],
        ['post', '/v1/auth/logout'],
        ['get', '/v1/me'],
        ['get', '/v1/me/skills'],
        ['get', '/v1/me/api-keys'],
        ['post', '/v1/me/api-keys'],
        ['delete', '/v1/me/api-keys/{keyId}'],
        ['get', '/v1/admin/users'],
        ['post', '/v1/admin/users'],
        ['patch', '/v1/admin/users/{userId}'],
        ['patch', '/v1/admin/skills/{skillId}/status'],
        ['patch', '/v1/admin/skills/{skillId}'],
        ['get', '/healthz'],
        ['get', '/readyz'],
        ['get', '/metrics'],
        ['get', '/v1/openapi.json'],
        ['get', '/v1/skills/{skillId}/versions'],
        ['post', '/v1/skills/{skillId}/versions'],
        ['post', '/v1/skills/with-package'],
        ['get', '/v1/skills/{skillId}/versions/{version}'],
        ['get', '/v1/skills/{skillId}/versions/{version}/download'],
        ['head', '/v1/skills/{skillId}/versions/{version}/download'],
        ['get', '/v1/skills/{skillId}/versions/{version}/files'],
        ['get', '/v1/skills/{skillId}/versions/{version}/files/{*}'],
        ['get', '/v1/skills/{skillId}/stats'],
        ['post', '/v1/packages/validate'],
        ['post', '/v1/skills/{skillId}/reports'],
        ['get', '/v1/admin/reports'],
        ['get', '/v1/admin/skills/{skillId}/reports'],
        ['post', '/v1/admin/skills/{skillId}/reports/resolve'],
      ];
      for (const [method, path] of expected) {
        const op = doc.paths[path]?.[method];
        assert.ok(op, `${method.toUpperCase()} ${path} missing from the OpenAPI document`);
      }
      const upload = doc.paths['/v1/skills/{skillId}/versions']!.post! as { requestBody?: { content?: Record<string, unknown> } };
      assert.ok(upload.requestBody?.content?.['multipart/form-data'], 'uploads are documented as multipart/form-data');
      for (const name of ['Skill', 'User', 'ApiKey', 'Problem', 'Version', 'Report'])
        assert.ok(doc.components.schemas[name], `schema ${name} missing`);
      const create = doc.paths['/v1/skills']!.post!;
      assert.ok(create.requestBody, 'POST /v1/skills documents its body');
      assert.ok(create.responses['201'] && create.responses['409'], 'POST /v1/skills documents 201 and 409');
    });

    it('renders the API docs at /docs', async () => {
      const res = await call(t, 'GET', '/docs/');
      expectStatus(res, 200);
      assert.match(res.body, /swagger-ui/i);
    });

    it('supports the newcomer path: register, create, upload a version, admin publishes, search finds it', async () => {
      const alice = await registerUser(t);
      const created = json<{ slug: string; status: string }>(
        expectStatus(
          await call(t, 'POST', '/v1/skills', alice.session, { name: 'Zebra Stripes', description: 'Paints zebra stripes on charts' }),
          201,
        ),
      );
      assert.equal(created.slug, 'zebra-stripes');
      assert.equal(created.status, 'draft');
      assert.equal(json<{ total: number }>(await call(t, 'GET', '/v1/skills?q=zebra')).total, 0);
      // Publishing needs a version to install.
      await giveVersion(t, alice.session, 'zebra-stripes', '1.0.0');
      const admin = await adminSession(t);
      expectStatus(await call(t, 'PATCH', '/v1/admin/skills/zebra-stripes/status', admin, { status: 'published' }), 200);
      const found = json<{ items: { slug: string }[]; total: number }>(await call(t, 'GET', '/v1/skills?q=ZEBRA%20charts'));
      assert.equal(found.total, 1);
      assert.equal(found.items[0]!.slug, 'zebra-stripes');
    });
  });
}
