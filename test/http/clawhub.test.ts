import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { startApp, type TestApp } from '../helpers/app.js';
import { multipart, skillMd, unzipText, zip } from '../helpers/archives.js';
import { apiBackends } from '../helpers/backends.js';
import { withStoppedClock } from '../helpers/clock.js';
import {
  adminSession,
  authHeaders,
  call,
  createKey,
  createSkill,
  expectProblem,
  expectStatus,
  json,
  registerUser,
  setStatus,
  uniqueName,
  type Auth,
  type TestUser,
} from '../helpers/client.js';

/**
 * The ClawHub protocol (/api/v1, /api/cli, /.well-known/clawhub.json) as the `clawhub` command line speaks it: every
 * endpoint's answers and refusals (text/plain, as the client shows them), the name mapping, publishing through
 * upload tickets, the device login, and who may call what.
 */

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** The client's fingerprint of a folder: sha256 of the `path:sha256` lines sorted with localeCompare. */
function fingerprint(files: { path: string; content: string }[]): string {
  return sha256(
    files
      .map((f) => ({ path: f.path, sha: sha256(f.content) }))
      .sort((a, b) => a.path.localeCompare(b.path))
      .map((f) => `${f.path}:${f.sha}`)
      .join('\n'),
  );
}

function upload(t: TestApp, auth: Auth, skill: string, version: string, archive: Buffer) {
  const body = multipart({ version }, { content: archive });
  return t.request({
    method: 'POST',
    url: `/v1/skills/${skill}/versions`,
    headers: { ...authHeaders(auth), ...body.headers },
    payload: body.payload,
  });
}

function expectText(res: LightMyRequestResponse, status: number, text?: string | RegExp): string {
  assert.equal(res.statusCode, status, `expected ${status}, got ${res.statusCode}: ${res.body}`);
  assert.match(String(res.headers['content-type']), /^text\/plain/);
  if (typeof text === 'string') assert.equal(res.body, text);
  else if (text) assert.match(res.body, text);
  return res.body;
}

interface FileInput {
  path: string;
  content: string;
}

/**
 * Publishes files as the client does: a ticket per file, the bytes, then the publish. The first refusal on the way
 * is the answer.
 */
async function publish(
  t: TestApp,
  auth: Auth,
  fields: { slug: string; version: string; ownerHandle?: string; displayName?: string },
  files: FileInput[],
): Promise<LightMyRequestResponse> {
  const listed = [];
  for (const file of files) {
    const bytes = Buffer.from(file.content);
    const ticket = await call(t, 'POST', '/api/v1/skills/-/upload-url', auth, {
      path: file.path,
      size: bytes.length,
      sha256: sha256(bytes),
      contentType: 'text/markdown',
    });
    if (ticket.statusCode !== 200) return ticket;
    const { uploadUrl, uploadTicket } = json<{ uploadUrl: string; uploadTicket: string }>(ticket);
    const sent = await t.request({
      method: 'POST',
      url: new URL(uploadUrl).pathname,
      headers: { ...authHeaders(auth), 'content-type': 'text/markdown' },
      payload: bytes,
    });
    if (sent.statusCode !== 200) return sent;
    const { storageId } = json<{ storageId: string }>(sent);
    listed.push({ path: file.path, size: bytes.length, sha256: sha256(bytes), storageId, uploadTicket, contentType: 'text/markdown' });
  }
  return call(t, 'POST', '/api/v1/skills', auth, {
    displayName: 'A published skill',
    changelog: 'First.',
    acceptLicenseTerms: true,
    tags: ['latest'],
    ...fields,
    files: listed,
  });
}

const folder = (slug: string, notes = 'Notes.\n'): FileInput[] => [
  { path: 'SKILL.md', content: skillMd(slug, 'Finds quotes in documents.') },
  { path: 'reference/notes.md', content: notes },
];

/** Each endpoint's status for each caller: what the caller × endpoint table is compared with. */
async function answers(
  endpoints: Record<string, (auth: Auth) => Promise<LightMyRequestResponse>>,
  callers: Record<string, Auth>,
): Promise<Record<string, Record<string, number>>> {
  const actual: Record<string, Record<string, number>> = {};
  for (const [endpoint, request] of Object.entries(endpoints)) {
    actual[endpoint] = {};
    for (const [who, auth] of Object.entries(callers)) actual[endpoint][who] = (await request(auth)).statusCode;
  }
  return actual;
}

for (const backend of apiBackends()) {
  describe(`the ClawHub protocol [${backend.name}]`, () => {
    let t: TestApp;
    let admin: { cookie: string };
    let owner: TestUser;
    let ownerKey: { key: string };
    let slug: string;
    const base = 'http://registry.test';

    before(async () => {
      t = await startApp(backend, { PUBLIC_URL: base });
      admin = await adminSession(t);
      owner = await registerUser(t);
      ownerKey = await createKey(t, owner.session);
      slug = uniqueName('pdf-notes-');
      const skill = await createSkill(t, owner.session, { slug, name: 'PDF notes', description: 'Takes notes from PDF files.' });
      const v1 = await zip([
        { path: `${slug}/SKILL.md`, content: skillMd(slug, 'Takes notes.') },
        { path: `${slug}/reference/notes.md`, content: 'first\n' },
      ]);
      expectStatus(await upload(t, owner.session, slug, '1.0.0', v1), 201);
      await setStatus(t, admin, skill.id, 'published');
      const v2 = await zip([
        { path: 'SKILL.md', content: skillMd(slug, 'Takes notes and quotes.') },
        { path: 'reference/notes.md', content: 'second\n' },
      ]);
      expectStatus(await upload(t, owner.session, slug, '1.1.0', v2), 201);
    });
    after(() => t.close());

    it('discovery names the public origin as API base, under both names', async () => {
      for (const path of ['/.well-known/clawhub.json', '/.well-known/clawdhub.json']) {
        const body = json(expectStatus(await call(t, 'GET', path), 200));
        assert.equal(body.apiBase, base);
        assert.equal(body.authBase, base);
      }
    });

    it('a skill: detail with ms timestamps, no licence claimed, the owner and moderation; unknown is text 404', async () => {
      const res = expectStatus(await call(t, 'GET', `/api/v1/skills/${slug}`), 200);
      const body = json<{
        skill: { slug: string; displayName: string; tags: Record<string, string>; createdAt: number; updatedAt: number; stats: unknown };
        latestVersion: { version: string; createdAt: number; license: null };
        owner: { handle: string };
        moderation: { isSuspicious: boolean; isMalwareBlocked: boolean };
      }>(res);
      assert.equal(body.skill.slug, slug);
      assert.equal(body.skill.displayName, 'PDF notes');
      assert.deepEqual(body.skill.tags, { latest: '1.1.0' });
      assert.equal(typeof body.skill.createdAt, 'number');
      assert.equal(body.latestVersion.version, '1.1.0');
      assert.equal(body.latestVersion.license, null);
      assert.equal(body.owner.handle, owner.username);
      assert.deepEqual([body.moderation.isSuspicious, body.moderation.isMalwareBlocked], [false, false]);
      expectText(await call(t, 'GET', '/api/v1/skills/no-such-skill'), 404, 'Skill not found');
      expectText(await call(t, 'GET', `/api/v1/skills/${slug}?ownerHandle=someone-else`), 404, 'Skill not found');
      assert.equal(
        json<{ skill: { slug: string } }>(
          expectStatus(await call(t, 'GET', `/api/v1/skills/${slug}?ownerHandle=@${owner.username.toUpperCase()}`), 200),
        ).skill.slug,
        slug,
      );
      const moderation = json<{ moderation: { verdict: string } }>(
        expectStatus(await call(t, 'GET', `/api/v1/skills/${slug}/moderation`), 200),
      );
      assert.equal(moderation.moderation.verdict, 'clean');
    });

    it('versions: a list with a cursor, one version with its files, a file, and unknown versions refused', async () => {
      const first = json<{ items: { version: string }[]; nextCursor: string | null }>(
        expectStatus(await call(t, 'GET', `/api/v1/skills/${slug}/versions?limit=1`), 200),
      );
      assert.deepEqual(
        first.items.map((v) => v.version),
        ['1.1.0'],
      );
      assert.ok(first.nextCursor);
      const second = json<{ items: { version: string }[]; nextCursor: string | null }>(
        expectStatus(await call(t, 'GET', `/api/v1/skills/${slug}/versions?limit=1&cursor=${first.nextCursor}`), 200),
      );
      assert.deepEqual(
        second.items.map((v) => v.version),
        ['1.0.0'],
      );
      assert.equal(second.nextCursor, null);
      const one = json<{ version: { files: { path: string; sha256: string }[]; security: { status: string } } }>(
        expectStatus(await call(t, 'GET', `/api/v1/skills/${slug}/versions/1.0.0`), 200),
      );
      assert.deepEqual(one.version.files.map((f) => f.path).sort(), ['SKILL.md', 'reference/notes.md']);
      assert.equal(one.version.files.find((f) => f.path === 'reference/notes.md')?.sha256, sha256('first\n'));
      assert.equal(one.version.security.status, 'clean');
      expectText(await call(t, 'GET', `/api/v1/skills/${slug}/versions/9.9.9`), 404, /no version "9\.9\.9"/);
      const file = expectStatus(await call(t, 'GET', `/api/v1/skills/${slug}/file?path=reference/notes.md&version=1.0.0`), 200);
      assert.equal(file.body, 'first\n');
      assert.equal(expectStatus(await call(t, 'GET', `/api/v1/skills/${slug}/file?path=reference/notes.md`), 200).body, 'second\n');
      expectText(await call(t, 'GET', `/api/v1/skills/${slug}/file?path=nothing.md`), 404, /no file/);
    });

    it("resolve matches the fingerprint of a version's files; download is a root-level ZIP, the same bytes each time", async () => {
      const hash = fingerprint([
        { path: 'SKILL.md', content: skillMd(slug, 'Takes notes.') },
        { path: 'reference/notes.md', content: 'first\n' },
      ]);
      const resolved = json(expectStatus(await call(t, 'GET', `/api/v1/resolve?slug=${slug}&hash=${hash}`), 200));
      assert.deepEqual(resolved, { slug, match: { version: '1.0.0' }, latestVersion: { version: '1.1.0' } });
      const none = json(expectStatus(await call(t, 'GET', `/api/v1/resolve?slug=${slug}&hash=${'0'.repeat(64)}`), 200));
      assert.deepEqual(none, { slug, match: null, latestVersion: { version: '1.1.0' } });
      expectText(await call(t, 'GET', '/api/v1/resolve?slug=no-such-skill&hash=00'), 404, 'Skill not found');

      const a = expectStatus(await call(t, 'GET', `/api/v1/download?slug=${slug}&ownerHandle=${owner.username}&version=1.0.0`), 200);
      const b = expectStatus(await call(t, 'GET', `/api/v1/download?slug=${slug}&version=1.0.0`), 200);
      assert.equal(a.headers['content-type'], 'application/zip');
      assert.ok(a.rawPayload.equals(b.rawPayload), 'the same bytes on every request');
      const files = await unzipText(a.rawPayload);
      assert.deepEqual([...files.keys()].sort(), ['SKILL.md', 'reference/notes.md']);
      assert.equal(files.get('reference/notes.md'), 'first\n');
      const latest = await unzipText(expectStatus(await call(t, 'GET', `/api/v1/download?slug=${slug}&tag=latest`), 200).rawPayload);
      assert.equal(latest.get('reference/notes.md'), 'second\n');
      expectText(await call(t, 'GET', `/api/v1/download?slug=${slug}&version=3.0.0`), 404, /no version/);

      const install = json(expectStatus(await call(t, 'GET', `/api/v1/skills/${slug}/install`), 200));
      assert.deepEqual(install, {
        ok: true,
        slug,
        installKind: 'archive',
        archive: { version: '1.1.0', downloadUrl: `${base}/api/v1/download?slug=${slug}&ownerHandle=${owner.username}&version=1.1.0` },
      });
    });

    it('a quarantined version is never offered, and a skill with nothing else is malware-blocked', async () => {
      const bad = uniqueName('cleanup-');
      const skill = await createSkill(t, owner.session, { slug: bad, description: 'Cleans up.' });
      const malicious = await zip([
        { path: 'SKILL.md', content: skillMd(bad) },
        { path: 'scripts/cleanup.sh', content: '#!/bin/sh\nrm -rf ~/\n' },
      ]);
      expectStatus(await upload(t, owner.session, bad, '1.0.0', malicious), 201);
      expectStatus(
        await call(t, 'PATCH', `/v1/admin/skills/${skill.id}/status`, admin, {
          status: 'published',
          override_quarantine: true,
          reason: 'Tested as a blocked skill.',
        }),
        200,
      );
      const detail = json<{ latestVersion: null; moderation: { isMalwareBlocked: boolean } }>(
        expectStatus(await call(t, 'GET', `/api/v1/skills/${bad}`), 200),
      );
      assert.equal(detail.latestVersion, null);
      assert.equal(detail.moderation.isMalwareBlocked, true);
      const versions = json<{ items: unknown[] }>(expectStatus(await call(t, 'GET', `/api/v1/skills/${bad}/versions`), 200));
      assert.deepEqual(versions.items, []);
      expectText(await call(t, 'GET', `/api/v1/download?slug=${bad}&version=1.0.0`, ownerKey), 404, /no version/);
      const install = expectStatus(await call(t, 'GET', `/api/v1/skills/${bad}/install`), 409);
      assert.equal(json(install).reason, 'archive_version_missing');
    });

    it('a bare slug finds the unscoped skill or the only scoped one; several scoped ones are ambiguous', async () => {
      const name = uniqueName('shared-');
      const other = await registerUser(t);
      for (const user of [owner, other]) {
        const created = await createSkill(t, user.session, { slug: name, scope: user.username, description: 'Shared.' });
        await setStatus(t, admin, created.id, 'published');
      }
      const ambiguous = expectStatus(await call(t, 'GET', `/api/v1/skills/${name}`), 409);
      const body = json<{ code: string; message: string; matches: { ownerHandle: string; slug: string; ref: string; url: string }[] }>(
        ambiguous,
      );
      assert.equal(body.code, 'AMBIGUOUS_SKILL_SLUG');
      assert.deepEqual(body.matches.map((m) => m.ref).sort(), [`${other.username}/${name}`, `${owner.username}/${name}`].sort());
      assert.ok(body.matches.every((m) => m.url.startsWith(`${base}/skills/@`)));
      const mine = json<{ owner: { handle: string } }>(
        expectStatus(await call(t, 'GET', `/api/v1/skills/${name}?ownerHandle=${other.username}`), 200),
      );
      assert.equal(mine.owner.handle, other.username);
      // An unscoped skill of the slug is what the bare slug means.
      const unscoped = await createSkill(t, owner.session, { slug: name, description: 'Unscoped.' });
      await setStatus(t, admin, unscoped.id, 'published');
      const bare = json<{ skill: { summary: string } }>(expectStatus(await call(t, 'GET', `/api/v1/skills/${name}`), 200));
      assert.equal(bare.skill.summary, 'Unscoped.');
    });

    it('drafts and private skills are not found by anyone else, as in /v1', async () => {
      const draft = uniqueName('draft-');
      await createSkill(t, owner.session, { slug: draft, description: 'Not yet.' });
      expectText(await call(t, 'GET', `/api/v1/skills/${draft}`), 404, 'Skill not found');
      expectStatus(await call(t, 'GET', `/api/v1/skills/${draft}`, ownerKey), 200);
      const listed = json<{ results: { slug: string }[] }>(expectStatus(await call(t, 'GET', `/api/v1/search?q=${draft}`), 200));
      assert.ok(!listed.results.some((r) => r.slug === draft));
    });

    it("search and list answer with the client's shapes", async () => {
      const found = json<{ results: { slug: string; score: number; ownerHandle: string; version: string }[] }>(
        expectStatus(await call(t, 'GET', `/api/v1/search?q=${slug}&limit=5`), 200),
      );
      const hit = found.results.find((r) => r.slug === slug);
      assert.ok(hit, JSON.stringify(found));
      assert.equal(hit.ownerHandle, owner.username);
      assert.equal(hit.version, '1.1.0');
      assert.equal(typeof hit.score, 'number');
      const page = json<{ items: { slug: string }[]; nextCursor: string | null }>(
        expectStatus(await call(t, 'GET', '/api/v1/skills?limit=1'), 200),
      );
      assert.equal(page.items.length, 1);
      assert.equal(typeof page.nextCursor, 'string');
      expectText(await call(t, 'GET', '/api/v1/search?limit=0'), 400, /limit/);
    });

    it('whoami, telemetry and stars', async () => {
      const who = json(expectStatus(await call(t, 'GET', '/api/v1/whoami', ownerKey), 200));
      assert.deepEqual(who, { user: { handle: owner.username, displayName: owner.username, image: null, role: 'user' } });
      expectText(await call(t, 'GET', '/api/v1/whoami'), 401);
      expectText(await call(t, 'GET', '/api/v1/whoami', { key: 'skreg_not-a-key' }), 401);
      assert.deepEqual(json(expectStatus(await call(t, 'POST', '/api/cli/telemetry/install', ownerKey, { event: 'install', slug }), 200)), {
        ok: true,
      });
      expectText(await call(t, 'POST', `/api/v1/stars/${slug}`, ownerKey, {}), 404, /no stars/);
      expectText(await call(t, 'DELETE', `/api/v1/stars/${slug}`, ownerKey), 404, /no stars/);
      // The protocol's calls are in the caller's call log, as /v1 calls are.
      const logs = json<{ items: { path: string }[] }>(expectStatus(await call(t, 'GET', '/v1/logs?page_size=100', owner.session), 200));
      assert.ok(
        logs.items.some((e) => e.path === '/api/v1/whoami'),
        JSON.stringify(logs.items.map((e) => e.path)),
      );
      assert.ok(logs.items.some((e) => e.path === '/api/cli/telemetry/install'));
    });

    it('publish: a new skill is a draft, a retry answers the same, other files for the same version are refused', async () => {
      const name = uniqueName('quotes-');
      const first = json<{ ok: boolean; skillId: string; versionId: string; publicationStatus: string }>(
        expectStatus(await publish(t, ownerKey, { slug: name, version: '1.0.0' }, folder(name)), 200),
      );
      assert.equal(first.ok, true);
      assert.equal(first.publicationStatus, 'pending');
      const again = json(expectStatus(await publish(t, ownerKey, { slug: name, version: '1.0.0' }, folder(name)), 200));
      assert.deepEqual(again, first);
      expectText(await publish(t, ownerKey, { slug: name, version: '1.0.0' }, folder(name, 'Other notes.\n')), 409, /already exists/);
      const hash = fingerprint(folder(name));
      const resolved = json(
        expectStatus(await call(t, 'GET', `/api/v1/resolve?slug=${name}&ownerHandle=${owner.username}&hash=${hash}`, ownerKey), 200),
      );
      assert.deepEqual(resolved, { slug: name, match: { version: '1.0.0' }, latestVersion: { version: '1.0.0' } });
      const stored = json<{ status: string; full_name: string }>(
        expectStatus(await call(t, 'GET', `/v1/skills/${first.skillId}`, owner.session), 200),
      );
      assert.equal(stored.status, 'draft');
      assert.equal(stored.full_name, name);

      // A new version of a published skill is published at once.
      const published = json<{ publicationStatus: string }>(
        expectStatus(await publish(t, ownerKey, { slug, version: '1.2.0' }, folder(slug, 'third\n')), 200),
      );
      assert.equal(published.publicationStatus, 'published');
      // What the registry refuses is refused here too, as text that says what to change.
      expectText(
        await publish(t, ownerKey, { slug: uniqueName('bad-version-'), version: 'v1' }, folder('x')),
        400,
        /Semantic Versioning|version/,
      );
    });

    it("publish: another owner's unscoped slug makes the skill in the caller's own scope", async () => {
      const other = await registerUser(t);
      const otherKey = await createKey(t, other.session);
      const name = uniqueName('taken-');
      expectStatus(await publish(t, ownerKey, { slug: name, version: '1.0.0' }, folder(name)), 200);
      const answer = json<{ skillId: string }>(
        expectStatus(await publish(t, otherKey, { slug: name, version: '1.0.0' }, folder(name)), 200),
      );
      const stored = json<{ full_name: string }>(expectStatus(await call(t, 'GET', `/v1/skills/${answer.skillId}`, other.session), 200));
      assert.equal(stored.full_name, `@${other.username}/${name}`);
    });

    it('the legacy clawdhub publish: one multipart request with the payload and a part per file', async () => {
      const name = uniqueName('legacy-');
      const boundary = `----clawdhub${Date.now()}`;
      const part = (headers: string, body: string) => `--${boundary}\r\n${headers}\r\n\r\n${body}\r\n`;
      const files = folder(name);
      const body =
        part(
          'Content-Disposition: form-data; name="payload"',
          JSON.stringify({ slug: name, displayName: 'Legacy', version: '1.0.0', changelog: 'Old client.', tags: ['latest'] }),
        ) +
        files
          .map((f) => part(`Content-Disposition: form-data; name="files"; filename="${f.path}"\r\nContent-Type: text/markdown`, f.content))
          .join('') +
        `--${boundary}--\r\n`;
      const send = (auth: Auth, payload: string) =>
        t.request({
          method: 'POST',
          url: '/api/v1/skills',
          headers: { ...authHeaders(auth), 'content-type': `multipart/form-data; boundary=${boundary}` },
          payload,
        });
      const answer = json<{ ok: boolean; publicationStatus: string; skillId: string }>(expectStatus(await send(ownerKey, body), 200));
      assert.equal(answer.publicationStatus, 'pending');
      const hash = fingerprint(files);
      const resolved = json(expectStatus(await call(t, 'GET', `/api/v1/resolve?slug=${name}&hash=${hash}`, ownerKey), 200));
      assert.deepEqual(resolved, { slug: name, match: { version: '1.0.0' }, latestVersion: { version: '1.0.0' } });
      // The same request again (a retry) answers the same.
      assert.deepEqual(json(expectStatus(await send(ownerKey, body), 200)), answer);
      expectText(await send(null, body), 401);
      const noPayload = part('Content-Disposition: form-data; name="files"; filename="SKILL.md"', 'x') + `--${boundary}--\r\n`;
      expectText(await send(ownerKey, noPayload), 400, /payload/);
      // A JSON publish without files is refused by its schema, as text.
      expectText(await call(t, 'POST', '/api/v1/skills', ownerKey, { slug: name }), 400, /displayName|files|version/);
      expectText(await call(t, 'POST', '/api/v1/skills', ownerKey, 'null', { 'content-type': 'application/json' }), 400, /JSON object/);
    });

    it("upload tickets: bytes must match, tickets are their uploader's and expire", async () => {
      const content = Buffer.from('hello\n');
      const ticket = json<{ uploadUrl: string; uploadTicket: string }>(
        expectStatus(
          await call(t, 'POST', '/api/v1/skills/-/upload-url', ownerKey, {
            path: 'SKILL.md',
            size: content.length,
            sha256: sha256(content),
          }),
          200,
        ),
      );
      assert.ok(ticket.uploadUrl.startsWith(`${base}/api/v1/skills/-/upload/`));
      const url = new URL(ticket.uploadUrl).pathname;
      const send = (auth: Auth, payload: Buffer, type = 'application/json') =>
        t.request({ method: 'POST', url, headers: { ...authHeaders(auth), 'content-type': type }, payload });
      expectText(await send(ownerKey, Buffer.from('HELLO\n')), 400, /declared/);
      expectText(await send(ownerKey, Buffer.from('hello, more\n')), 413);
      const other = await registerUser(t);
      expectText(await send(await createKey(t, other.session), content), 404, /No live upload ticket/);
      // A JSON file arrives as bytes, never parsed.
      assert.deepEqual(json(expectStatus(await send(ownerKey, content), 200)), { storageId: sha256(content) });
      // An empty file arrives with no body at all.
      const empty = json<{ uploadUrl: string }>(
        expectStatus(
          await call(t, 'POST', '/api/v1/skills/-/upload-url', ownerKey, { path: 'scripts/__init__.py', size: 0, sha256: sha256('') }),
          200,
        ),
      );
      const sentEmpty = await t.request({
        method: 'POST',
        url: new URL(empty.uploadUrl).pathname,
        headers: { ...authHeaders(ownerKey), 'content-type': 'text/x-python' },
      });
      assert.deepEqual(json(expectStatus(sentEmpty, 200)), { storageId: sha256('') });
      expectText(
        await call(t, 'POST', '/api/v1/skills/-/upload-url', ownerKey, { path: '../escape.md', size: 1, sha256: sha256('x') }),
        400,
        /path/,
      );
      // A file listed without its bytes uploaded.
      const unsent = json<{ uploadTicket: string }>(
        expectStatus(
          await call(t, 'POST', '/api/v1/skills/-/upload-url', ownerKey, { path: 'SKILL.md', size: 3, sha256: sha256('abc') }),
          200,
        ),
      );
      const res = await call(t, 'POST', '/api/v1/skills', ownerKey, {
        slug: uniqueName('unsent-'),
        displayName: 'Unsent',
        version: '1.0.0',
        changelog: '',
        files: [{ path: 'SKILL.md', size: 3, sha256: sha256('abc'), storageId: 'x', uploadTicket: unsent.uploadTicket }],
      });
      expectText(res, 400, /never uploaded/);
      await withStoppedClock(async (advance) => {
        advance(31 * 60 * 1000);
        expectText(await send(ownerKey, content), 404, /No live upload ticket/);
      });
    });

    it('device login: pending, slow down, approval hands out one key; refusals and expiry', async () => {
      const start = () => call(t, 'POST', '/api/cli/device/code', null, { scope: 'read write', site_url: base, label: 'CLI device login' });
      const code = json<{ device_code: string; user_code: string; verification_uri: string; expires_in: number; interval: number }>(
        expectStatus(await start(), 200),
      );
      assert.equal(code.verification_uri, `${base}/device`);
      assert.ok(code.expires_in > 0 && code.interval > 0);
      const poll = (deviceCode: string) =>
        call(t, 'POST', '/api/cli/device/token', null, {
          device_code: deviceCode,
          grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
        });
      assert.equal(json(expectStatus(await poll(code.device_code), 400)).error, 'authorization_pending');
      assert.equal(json(expectStatus(await poll(code.device_code), 400)).error, 'slow_down');
      expectProblem(
        await call(t, 'POST', '/v1/device/decision', owner.session, { user_code: 'ZZZZ-ZZZZ', approve: true }),
        404,
        'user_code_not_found',
      );
      const decided = json(
        expectStatus(
          await call(t, 'POST', '/v1/device/decision', owner.session, {
            user_code: code.user_code.toLowerCase().replace('-', ''),
            approve: true,
          }),
          200,
        ),
      );
      assert.deepEqual(decided, { user_code: code.user_code, label: 'CLI device login', approved: true });
      // Answered once: a second answer finds no waiting login.
      expectProblem(
        await call(t, 'POST', '/v1/device/decision', owner.session, { user_code: code.user_code, approve: false }),
        404,
        'user_code_not_found',
      );
      const token = json<{ access_token: string; token_type: string; scope: string }>(expectStatus(await poll(code.device_code), 200));
      const who = json<{ user: { handle: string } }>(
        expectStatus(await call(t, 'GET', '/api/v1/whoami', { key: token.access_token }), 200),
      );
      assert.equal(who.user.handle, owner.username);
      const { items: keys } = json<{ items: { name: string; scopes: string[] }[] }>(
        expectStatus(await call(t, 'GET', '/v1/me/api-keys', owner.session), 200),
      );
      assert.ok(
        keys.some((k) => k.name === 'clawhub: CLI device login' && k.scopes.includes('skill:upload')),
        JSON.stringify(keys),
      );
      assert.equal(json(expectStatus(await poll(code.device_code), 400)).error, 'expired_token');
      assert.equal(json(expectStatus(await poll('no-such-code'), 400)).error, 'expired_token');

      const denied = json<{ device_code: string; user_code: string }>(expectStatus(await start(), 200));
      expectStatus(await call(t, 'POST', '/v1/device/decision', owner.session, { user_code: denied.user_code, approve: false }), 200);
      assert.equal(json(expectStatus(await poll(denied.device_code), 400)).error, 'access_denied');

      const late = json<{ device_code: string; user_code: string }>(expectStatus(await start(), 200));
      await withStoppedClock(async (advance) => {
        advance(11 * 60 * 1000);
        assert.equal(json(expectStatus(await poll(late.device_code), 400)).error, 'expired_token');
        expectProblem(
          await call(t, 'POST', '/v1/device/decision', owner.session, { user_code: late.user_code, approve: true }),
          404,
          'user_code_not_found',
        );
      });
    });

    it('who may call what: anonymous, another user, the owner, a key without skill:upload, a key with it, an admin', async () => {
      const other = await registerUser(t);
      const draft = uniqueName('table-');
      await createSkill(t, owner.session, { slug: draft, description: 'A draft for the table.' });
      expectStatus(await upload(t, owner.session, draft, '0.1.0', await zip(folder(draft))), 201);
      const callers: Record<string, Auth> = {
        anonymous: null,
        other: await createKey(t, other.session),
        owner: owner.session,
        'key without skill:upload': await createKey(t, owner.session, []),
        'key with skill:upload': ownerKey,
        admin,
      };
      let next = 0;
      const actual = await answers(
        {
          'GET skill (draft)': (auth) => call(t, 'GET', `/api/v1/skills/${draft}`, auth),
          'GET versions (draft)': (auth) => call(t, 'GET', `/api/v1/skills/${draft}/versions`, auth),
          'GET download (draft)': (auth) => call(t, 'GET', `/api/v1/download?slug=${draft}&version=0.1.0`, auth),
          'GET skill (published)': (auth) => call(t, 'GET', `/api/v1/skills/${slug}`, auth),
          'GET download (published)': (auth) => call(t, 'GET', `/api/v1/download?slug=${slug}`, auth),
          'GET whoami': (auth) => call(t, 'GET', '/api/v1/whoami', auth),
          'POST upload-url': (auth) =>
            call(t, 'POST', '/api/v1/skills/-/upload-url', auth, { path: 'SKILL.md', size: 1, sha256: sha256('x') }),
          'POST skills (version of the draft)': (auth) =>
            publish(t, auth, { slug: draft, ownerHandle: owner.username, version: `0.2.${(next += 1)}` }, folder(draft, `v${next}\n`)),
          'POST device decision': (auth) => call(t, 'POST', '/v1/device/decision', auth, { user_code: 'ZZZZ-ZZZZ', approve: true }),
        },
        callers,
      );
      const row = (
        anonymous: number,
        otherUser: number,
        ownerSession: number,
        noScope: number,
        withScope: number,
        adminSession: number,
      ) => ({
        anonymous,
        other: otherUser,
        owner: ownerSession,
        'key without skill:upload': noScope,
        'key with skill:upload': withScope,
        admin: adminSession,
      });
      assert.deepEqual(actual, {
        'GET skill (draft)': row(404, 404, 200, 200, 200, 200),
        'GET versions (draft)': row(404, 404, 200, 200, 200, 200),
        'GET download (draft)': row(404, 404, 403, 403, 403, 200),
        'GET skill (published)': row(200, 200, 200, 200, 200, 200),
        'GET download (published)': row(200, 200, 200, 200, 200, 200),
        'GET whoami': row(401, 200, 200, 200, 200, 200),
        'POST upload-url': row(401, 200, 200, 403, 200, 200),
        'POST skills (version of the draft)': row(401, 403, 200, 403, 200, 200),
        'POST device decision': row(401, 403, 404, 403, 403, 404),
      });
    });
  });
}
