import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse as parseDisposition } from 'content-disposition';
import { filenameFrom } from '../../packages/client/src/api/versions.js';
import { ADMIN, startApp, type TestApp } from '../helpers/app.js';
import { multipart, skillMd, zip } from '../helpers/archives.js';
import { apiBackends } from '../helpers/backends.js';
import {
  adminSession,
  authHeaders,
  call,
  createSkill,
  expectProblem,
  expectStatus,
  json,
  registerUser,
  setStatus,
  uniqueName,
  type Auth,
  type SkillBody,
  type TestUser,
} from '../helpers/client.js';
import { ifSet } from '../helpers/hooks.js';

/** Small 4xx and header rules: file names in Content-Disposition, numeric query values, page depth, unstorable text, weak passwords, /docs headers. */

function upload(t: TestApp, auth: Auth, skill: string, version: string, archive: Buffer, extra: Record<string, string> = {}) {
  const body = multipart({ version, ...extra }, { content: archive });
  return t.request({
    method: 'POST',
    url: `/v1/skills/${skill}/versions`,
    headers: { ...authHeaders(auth), ...body.headers },
    payload: body.payload,
  });
}

function fieldsOf(body: Record<string, unknown>): string[] {
  return ((body.errors as { field: string }[] | undefined) ?? []).map((e) => e.field).sort();
}

/** A JSON body sent as written, so that escapes such as \ud800 reach the server unchanged. */
function rawJson(t: TestApp, method: 'POST' | 'PATCH', url: string, auth: Auth, text: string) {
  return t.request({ method, url, headers: { ...authHeaders(auth), 'content-type': 'application/json' }, payload: text });
}

const QUOTED_NAME = `a"; filename*=UTF-8''evil.html; x=".bin`;
const JAPANESE_NAME = '日本.bin';

describe('the client reads the file name the server sends', () => {
  it('takes filename* over the ASCII fallback, and quoted names with escapes', () => {
    assert.equal(filenameFrom(`attachment; filename="??.bin"; filename*=UTF-8''%E6%97%A5%E6%9C%AC.bin`), JAPANESE_NAME);
    assert.equal(filenameFrom('attachment; filename="a\\"; filename*=UTF-8\'\'evil.html; x=\\".bin"'), QUOTED_NAME);
    assert.equal(filenameFrom('attachment; filename="pdf-tools-1.0.0.zip"'), 'pdf-tools-1.0.0.zip');
    assert.equal(filenameFrom('attachment; filename=pdf-tools-1.0.0.zip'), 'pdf-tools-1.0.0.zip');
    assert.equal(filenameFrom('inline'), null);
    assert.equal(filenameFrom(null), null);
    assert.equal(filenameFrom('attachment; filename="unterminated'), null);
  });
});

for (const backend of apiBackends()) {
  describe(`small hardening [${backend.name}]`, () => {
    let t: TestApp;
    let alice: TestUser;
    let admin: { cookie: string };
    let published: SkillBody;

    before(async () => {
      t = await startApp(backend);
      alice = await registerUser(t);
      admin = await adminSession(t);
      const archive = await zip([
        { path: 'SKILL.md', content: skillMd() },
        { path: `files/${QUOTED_NAME}`, content: 'quoted' },
        { path: `files/${JAPANESE_NAME}`, content: 'japanese' },
      ]);
      published = await createSkill(t, alice.session);
      expectStatus(await upload(t, alice.session, published.slug, '1.0.0', archive), 201);
      await setStatus(t, admin, published.slug, 'published');
    });
    after(() => ifSet(t)?.close());

    describe('Content-Disposition', () => {
      it('names a file with a quote in it as it is, with no second filename parameter to follow', async () => {
        const res = expectStatus(
          await call(t, 'GET', `/v1/skills/${published.slug}/versions/1.0.0/files/files/${encodeURIComponent(QUOTED_NAME)}`),
          200,
        );
        const header = String(res.headers['content-disposition']);
        const parsed = parseDisposition(header);
        assert.equal(parsed.type, 'attachment');
        assert.equal(parsed.parameters.filename, QUOTED_NAME, header);
        assert.equal(filenameFrom(header), QUOTED_NAME);
        assert.equal(res.body, 'quoted');
      });

      it('names a file outside Latin-1 with filename* and an ASCII fallback, instead of failing', async () => {
        const res = expectStatus(
          await call(t, 'GET', `/v1/skills/${published.slug}/versions/1.0.0/files/files/${encodeURIComponent(JAPANESE_NAME)}`),
          200,
        );
        const header = String(res.headers['content-disposition']);
        assert.match(header, /^attachment; filename="[\x20-\x7e]*"; filename\*=UTF-8''%E6%97%A5%E6%9C%AC\.bin$/);
        assert.equal(filenameFrom(header), JAPANESE_NAME);
        assert.equal(res.body, 'japanese');
      });

      it('keeps the quoted form of a plain package name, which released clients read', async () => {
        const res = expectStatus(await call(t, 'GET', `/v1/skills/${published.slug}/versions/1.0.0/download`), 200);
        assert.equal(res.headers['content-disposition'], `attachment; filename="${published.slug}-1.0.0.zip"`);
        assert.equal(filenameFrom(res.headers['content-disposition']), `${published.slug}-1.0.0.zip`);
      });
    });

    describe('numeric query values', () => {
      const lists = () =>
        [
          ['/v1/skills', null],
          ['/v1/me/skills', alice.session],
          [`/v1/skills/${published.slug}/versions`, null],
          [`/v1/skills/${published.slug}/feedback`, alice.session],
          ['/v1/logs', alice.session],
          ['/v1/admin/users', admin],
        ] as const;

      for (const value of ['Infinity', '-Infinity', '1e400', '-1e400', 'NaN']) {
        it(`refuses page=${value} and page_size=${value} on every list with 400 validation_failed`, async () => {
          for (const [path, auth] of lists()) {
            for (const param of ['page', 'page_size']) {
              const res = await call(t, 'GET', `${path}?${param}=${value}`, auth);
              assert.equal(res.statusCode, 400, `${path}?${param}=${value}: ${res.body}`);
              const body = expectProblem(res, 400, 'validation_failed');
              assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
              assert.deepEqual(fieldsOf(body), [param], `${path}?${param}=${value}: ${res.body}`);
            }
          }
        });
      }

      it('refuses other numeric query values that are not finite', async () => {
        for (const url of [`/v1/skills/${published.slug}/feedback?rating=Infinity`, `/v1/skills/${published.slug}/stats?days=1e400`]) {
          expectProblem(await call(t, 'GET', url, alice.session), 400, 'validation_failed');
        }
      });

      it('refuses pages past the first 10,000 items, and still serves the last page within them', async () => {
        for (const [path, auth] of lists()) {
          expectStatus(await call(t, 'GET', `${path}?page=500&page_size=20`, auth), 200);
          expectStatus(await call(t, 'GET', `${path}?page=100&page_size=100`, auth), 200);
          for (const query of ['page=501&page_size=20', 'page=101&page_size=100', 'page=10001', 'page=9007199254740993']) {
            const body = expectProblem(await call(t, 'GET', `${path}?${query}`, auth), 400, 'validation_failed');
            assert.deepEqual(fieldsOf(body), ['page'], `${path}?${query}`);
          }
        }
      });
    });

    describe('text no database can store', () => {
      it('refuses a lone surrogate or NUL in any JSON body field, naming the field, and stores nothing', async () => {
        const cases: [string, string][] = [
          ['{"name":"bad \\ud800 name"}', 'name'],
          ['{"name":"ok","description":"half \\udc00 pair"}', 'description'],
          ['{"name":"ok","tags":["fine","x\\ud800"]}', 'tags[1]'],
          ['{"name":"nul \\u0000 name"}', 'name'],
        ];
        const before = json<{ total: number }>(await call(t, 'GET', '/v1/me/skills', alice.session)).total;
        for (const [text, field] of cases) {
          const body = expectProblem(await rawJson(t, 'POST', '/v1/skills', alice.session, text), 400, 'validation_failed');
          assert.deepEqual(fieldsOf(body), [field], text);
        }
        assert.equal(json<{ total: number }>(await call(t, 'GET', '/v1/me/skills', alice.session)).total, before);

        const patch = expectProblem(
          await rawJson(t, 'PATCH', `/v1/skills/${published.slug}`, alice.session, '{"description":"\\ud83d"}'),
          400,
          'validation_failed',
        );
        assert.deepEqual(fieldsOf(patch), ['description']);
        const feedback = expectProblem(
          await rawJson(t, 'POST', '/v1/feedback', alice.session, `{"skill_id":"${published.slug}","rating":5,"comment":"great \\udfff"}`),
          400,
          'validation_failed',
        );
        assert.deepEqual(fieldsOf(feedback), ['comment']);
        const register = expectProblem(
          await rawJson(
            t,
            'POST',
            '/v1/auth/register',
            null,
            `{"username":"${uniqueName()}","email":"x@example.com","password":"long \\ud800 password"}`,
          ),
          400,
          'validation_failed',
        );
        assert.deepEqual(fieldsOf(register), ['password']);
        // A well-formed pair is an ordinary character.
        expectStatus(
          await rawJson(t, 'PATCH', `/v1/skills/${published.slug}`, alice.session, '{"description":"emoji \\ud83d\\ude00"}'),
          200,
        );
      });

      it('refuses a lone surrogate or NUL in the metadata of an upload, naming where, and stores no version', async () => {
        const skill = await createSkill(t, alice.session);
        const archive = await zip([{ path: 'SKILL.md', content: skillMd() }]);
        const cases: [string, string][] = [
          ['{"a":"\\ud800"}', 'metadata.a'],
          ['{"a":{"b":["ok","\\u0000"]}}', 'metadata.a.b[1]'],
          ['{"\\udc00":1}', 'metadata.\udc00'],
        ];
        for (const [metadata, field] of cases) {
          const body = expectProblem(await upload(t, alice.session, skill.slug, '1.0.0', archive, { metadata }), 400, 'validation_failed');
          assert.deepEqual(fieldsOf(body), [field], metadata);
        }
        const nulChangelog = expectProblem(
          await upload(t, alice.session, skill.slug, '1.0.0', archive, { changelog: 'a\u0000b' }),
          400,
          'validation_failed',
        );
        assert.deepEqual(fieldsOf(nulChangelog), ['changelog']);
        assert.equal(json<{ total: number }>(await call(t, 'GET', `/v1/skills/${skill.slug}/versions`, alice.session)).total, 0);
        expectStatus(await upload(t, alice.session, skill.slug, '1.0.0', archive, { metadata: '{"a":"\\ud83d\\ude00"}' }), 201);
      });
    });

    describe('passwords', () => {
      function account(password: string, username = uniqueName()) {
        return { username, email: `${username}@example.com`, password };
      }

      it('refuses a common password at registration, as a field error on password that says why', async () => {
        for (const password of ['password1', 'Password123', '12345678', 'iloveyou', 'QWERTYUIOP']) {
          const body = expectProblem(await call(t, 'POST', '/v1/auth/register', null, account(password)), 400, 'validation_failed');
          assert.deepEqual(fieldsOf(body), ['password'], password);
          assert.match((body.errors as { message: string }[])[0]!.message, /commonly used/);
        }
      });

      it('refuses a password made of the username or email alone', async () => {
        const username = uniqueName('carol');
        for (const password of [username, username.toUpperCase(), `${username}!!`, `${username}.${username}`, `${username}@example.com`]) {
          const body = expectProblem(
            await call(t, 'POST', '/v1/auth/register', null, account(password, username)),
            400,
            'validation_failed',
          );
          assert.deepEqual(fieldsOf(body), ['password'], password);
          assert.match((body.errors as { message: string }[])[0]!.message, /username or email/);
        }
        expectStatus(await call(t, 'POST', '/v1/auth/register', null, account(`${username}-walks-the-dog`, username)), 201);
      });

      it('applies to accounts an administrator creates', async () => {
        const body = expectProblem(await call(t, 'POST', '/v1/admin/users', admin, account('letmein123')), 400, 'validation_failed');
        assert.deepEqual(fieldsOf(body), ['password']);
        expectStatus(await call(t, 'POST', '/v1/admin/users', admin, account('admin-made-password-7')), 201);
      });

      it('does not apply to the bootstrap administrator of ADMIN_PASSWORD, so a registry set up before the rule still starts', async () => {
        const legacy = await startApp(backend, { ADMIN_PASSWORD: 'password1' });
        try {
          expectStatus(await call(legacy, 'POST', '/v1/auth/login', null, { login: ADMIN.username, password: 'password1' }), 200);
        } finally {
          await legacy.close();
        }
      });
    });

    describe('/docs', () => {
      it('sends the security headers of the console, with a policy for what the Swagger UI loads from itself', async () => {
        const page = await call(t, 'GET', '/docs');
        const target = page.statusCode === 302 ? String(page.headers.location) : '/docs';
        for (const url of [
          target,
          '/docs/',
          '/docs/static/swagger-initializer.js',
          '/docs/static/swagger-ui.css',
          '/docs/static/swagger-ui-bundle.js',
        ]) {
          const res = expectStatus(await call(t, 'GET', url.startsWith('/') ? url : `/docs/${url}`), 200);
          const csp = String(res.headers['content-security-policy']);
          for (const directive of [
            "default-src 'self'",
            "script-src 'self'",
            "object-src 'none'",
            "frame-ancestors 'none'",
            "img-src 'self' data:",
          ]) {
            assert.ok(csp.includes(directive), `${url}: ${csp}`);
          }
          assert.doesNotMatch(csp, /unsafe-eval/);
          assert.equal(res.headers['x-content-type-options'], 'nosniff', url);
          assert.equal(res.headers['x-frame-options'], 'DENY', url);
          assert.equal(res.headers['referrer-policy'], 'same-origin', url);
        }
        // Everything the page loads comes from the registry itself.
        const html = expectStatus(await call(t, 'GET', '/docs/'), 200).body;
        for (const src of html.matchAll(/(?:src|href)="([^"]+)"/g)) assert.doesNotMatch(src[1]!, /^(https?:)?\/\//, src[1]);
      });
    });
  });
}
