import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import {
  ConnectionError,
  createClient,
  IntegrityError,
  LocalFileError,
  ProblemError,
  RegistryClient,
  RegistryError,
  UploadSourceError,
  type Skill,
} from '@skill-registry/client';
import { ADMIN } from '../helpers/app.js';
import { zip, tarGz } from '../helpers/archives.js';
import { backends } from '../helpers/backends.js';
import { flushBackgroundWrites } from '../helpers/background.js';
import { uniqueName } from '../helpers/client.js';
import { closedAddress, removeDir, skillMdText, startRegistry, tempDir, uploader, type Registry } from './harness.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Runs `work`, which must fail with a ProblemError of this status and code; returns the error. */
async function problem(work: () => Promise<unknown>, status: number, code: string): Promise<ProblemError> {
  try {
    await work();
  } catch (error) {
    assert.ok(error instanceof ProblemError, `expected a ProblemError, got ${String(error)}`);
    assert.ok(error instanceof RegistryError);
    assert.equal(error.status, status, error.detail);
    assert.equal(error.code, code, error.detail);
    assert.ok(error.detail.length > 0);
    assert.match(error.request_id ?? '', UUID, 'every problem carries the request id');
    return error;
  }
  assert.fail(`expected ${status} ${code}, but the call succeeded`);
}

for (const backend of backends()) {
  describe(`typed client against a real registry (${backend.name})`, () => {
    let registry: Registry;
    let work: string;
    let owner: Awaited<ReturnType<typeof uploader>>;
    let client: RegistryClient;
    let admin: RegistryClient;

    before(async () => {
      // The node's own queue stays idle: the rescan job test runs it itself.
      registry = await startRegistry(backend, { MAX_UPLOAD_BYTES: String(256 * 1024), QUEUE_POLL_MS: '86400000' });
      work = tempDir();
      owner = await uploader(registry.t);
      client = createClient({ baseUrl: registry.url, apiKey: owner.key });
      admin = createClient({ baseUrl: registry.url });
      await admin.auth.login({ login: ADMIN.username, password: ADMIN.password });
    });
    after(async () => {
      await registry.close();
      removeDir(work);
    });

    it('operations: health, readiness, metrics and the OpenAPI document', async () => {
      assert.deepEqual(await client.operations.health(), { status: 'ok' });
      assert.equal((await client.operations.ready()).status, 'ok');
      assert.match(await client.operations.metrics(), /http_requests_total/);
      const openapi = await client.operations.openapi();
      assert.equal(openapi.openapi, '3.1.0');
    });

    it('accounts: register, sign in, me, API keys, sign out', async () => {
      const anonymous = createClient({ baseUrl: `${registry.url}/` });
      const username = uniqueName('client');
      const user = await anonymous.auth.register({ username, email: `${username}@example.com`, password: 'client-password-1' });
      assert.equal(user.username, username);
      assert.equal(user.role, 'user');

      const session = await anonymous.auth.login({ login: username, password: 'client-password-1' });
      assert.equal(session.user.id, user.id);
      assert.ok(session.session.length > 0);
      assert.deepEqual(anonymous.credentials, { session: session.session });
      const me = await anonymous.me.get();
      assert.equal(me.auth.kind, 'session');

      const created = await anonymous.me.apiKeys.create({ name: 'typed', scopes: ['skill:upload'], expires_in_days: 7 });
      assert.match(created.key, /^skreg_/);
      assert.deepEqual(
        (await anonymous.me.apiKeys.list()).items.map((k) => k.id),
        [created.id],
      );
      const keyed = createClient({ baseUrl: registry.url, apiKey: created.key });
      assert.deepEqual((await keyed.me.get()).auth, { kind: 'api_key', scopes: ['skill:upload'], api_key_id: created.id });
      // An API key may not manage keys: a typed 403.
      await problem(() => keyed.me.apiKeys.list(), 403, 'session_required');
      await anonymous.me.apiKeys.revoke(created.id);
      await problem(() => anonymous.me.apiKeys.revoke(created.id), 404, 'api_key_not_found');
      assert.equal((await anonymous.me.skills()).total, 0);

      await anonymous.auth.logout();
      assert.equal(anonymous.credentials, null);
      await problem(() => anonymous.me.get(), 401, 'unauthenticated');
      await problem(() => anonymous.auth.login({ login: username, password: 'wrong-password' }), 401, 'invalid_credentials');
      const badKey = createClient({ baseUrl: registry.url, apiKey: 'skreg_notAKey' });
      const refused = await problem(() => badKey.skills.list(), 401, 'unauthenticated');
      assert.equal(refused.headers.get('www-authenticate'), 'Bearer');
    });

    it('skills: create, read, list, update, delete, with typed problems for refusals', async () => {
      const slug = uniqueName('typed-');
      const skill = await client.skills.create({ name: 'Typed Skill', slug, description: 'Made by the typed client', tags: ['typed'] });
      assert.equal(skill.status, 'draft');
      assert.equal(skill.latest_version, null);
      assert.equal((await client.skills.get(slug)).id, skill.id);
      assert.equal((await client.skills.update(slug, { category: 'tools' })).category, 'tools');
      assert.ok((await client.me.skills({ status: 'draft' })).items.some((s) => s.slug === slug));
      const invalid = await problem(() => client.skills.create({ name: 'x', slug: 'Not A Slug' }), 400, 'invalid_slug');
      assert.equal(invalid.errors[0]?.field, 'slug');
      await problem(() => client.skills.create({ name: 'Again', slug }), 409, 'slug_taken');
      // A rename keeps the skill reachable by its old name: the client follows the registry's 308 to the new one.
      const renamed = uniqueName('typed-new-');
      assert.equal((await client.skills.rename(slug, renamed)).slug, renamed);
      assert.equal((await client.skills.get(slug)).id, skill.id);
      assert.equal((await client.skills.update(slug, { category: 'moved' })).category, 'moved');
      assert.deepEqual(
        (await client.skills.aliases(renamed)).items.map((a) => a.name),
        [slug],
      );
      await client.skills.delete(renamed);
      await problem(() => client.skills.get(renamed), 404, 'skill_not_found');
    });

    it('versions: streamed uploads with progress, validation, downloads, files and stats', async () => {
      const slug = uniqueName('pkg-');
      const first = await zip([
        { path: 'SKILL.md', content: skillMdText(slug) },
        { path: 'scripts/run.sh', content: 'echo run\n' },
      ]);
      const progress: [number, number | null][] = [];
      const created = await client.versions.createSkill(
        { name: 'Package Skill', slug, version: '1.0.0', tags: ['pkg', 'typed'], changelog: 'First' },
        first,
        { onProgress: (sent, total) => progress.push([sent, total]) },
      );
      assert.equal(created.skill.slug, slug);
      assert.deepEqual(created.skill.tags, ['pkg', 'typed']);
      assert.equal(created.version.sha256, createHash('sha256').update(first).digest('hex'));
      assert.ok(progress.length >= 2);
      const total = progress[0]![1];
      assert.ok(total !== null && total > first.length, 'a known size gives a total: the whole multipart body');
      assert.deepEqual(progress.at(-1), [total, total]);
      assert.ok(progress.every(([sent], i) => i === 0 || sent > progress[i - 1]![0]));

      // A stream of unknown length goes out chunked; a file on disk streams from disk.
      const second = await tarGz([{ path: 'SKILL.md', content: skillMdText(slug, 'Second.') }]);
      const uploaded = await client.versions.upload(
        slug,
        { version: '1.1.0', metadata: '{"channel":"beta"}' },
        { stream: Readable.from([second.subarray(0, 10), second.subarray(10)]) },
      );
      assert.equal(uploaded.archive_format, 'tar.gz');
      assert.deepEqual(uploaded.metadata, { channel: 'beta' });
      const onDisk = path.join(work, 'third.zip');
      writeFileSync(onDisk, await zip([{ path: 'SKILL.md', content: skillMdText(slug, 'Third.') }]));
      assert.equal((await client.versions.upload(slug, { version: '2.0.0-rc.1' }, { path: onDisk })).version, '2.0.0-rc.1');
      assert.equal((await client.versions.upload(slug, { version: '1.2.0' }, new Blob([readFileSync(onDisk)]))).version, '1.2.0');

      const refused = await problem(
        () => client.versions.upload(slug, { version: '1.3.0' }, Buffer.from('not an archive')),
        415,
        'unsupported_media_type',
      );
      assert.equal(refused.errors[0]?.field, 'file');
      const noDescription = await zip([{ path: 'SKILL.md', content: '---\nname: x\n---\n' }]);
      const unsafe = await problem(() => client.versions.upload(slug, { version: '1.3.0' }, noDescription), 422, 'invalid_skill_md');
      assert.ok(unsafe.errors.some((e) => e.entry === 'SKILL.md'));
      await problem(() => client.versions.upload(slug, { version: '1.1.0' }, first), 409, 'version_exists');
      await problem(() => client.versions.upload(slug, { version: 'v1' }, first), 400, 'invalid_version');
      await problem(() => client.versions.upload(slug, { version: '9.0.0' }, Buffer.alloc(300 * 1024, 1)), 413, 'payload_too_large');

      const valid = await client.versions.validate(first);
      assert.deepEqual([valid.valid, valid.files.map((f) => f.path)], [true, ['SKILL.md', 'scripts/run.sh']]);
      assert.equal(valid.scan?.verdict, created.version.scan?.verdict);

      // The scan report: the verdict the version record summarises, with every finding listed.
      const report = await client.versions.scan(slug, '1.0.0');
      assert.ok(created.version.scan !== null, 'an upload is scanned');
      assert.equal(report.verdict, created.version.scan.verdict);
      assert.equal(report.rules_version, created.version.scan.rules_version);
      assert.deepEqual(report.counts, created.version.scan.findings);
      assert.ok(Array.isArray(report.findings));
      await problem(() => client.versions.scan(slug, '9.9.9'), 404, 'version_not_found');
      const invalid = await client.versions.validate(Buffer.from('nope'));
      assert.equal(invalid.valid, false);
      assert.ok(invalid.errors.length > 0);

      assert.deepEqual(
        (await client.versions.list(slug)).items.map((v) => v.version),
        ['2.0.0-rc.1', '1.2.0', '1.1.0', '1.0.0'],
      );
      assert.equal((await client.versions.get(slug)).version, '1.2.0');
      assert.deepEqual(
        (await client.versions.files(slug, '1.0.0')).items.map((f) => f.path),
        ['SKILL.md', 'scripts/run.sh'],
      );
      assert.equal(await (await client.versions.file(slug, '1.0.0', 'scripts/run.sh')).text(), 'echo run\n');
      await problem(() => client.versions.file(slug, '1.0.0', 'missing.txt'), 404, 'file_not_found');

      // Drafts are not downloadable by their owner; published packages are, by anyone.
      await problem(() => client.versions.download(slug, '1.0.0'), 403, 'not_published');
      await admin.admin.setSkillStatus(slug, { status: 'published', reason: 'typed client test' });
      const anonymous = createClient({ baseUrl: registry.url });
      const download = await anonymous.versions.download(slug, '1.0.0');
      assert.equal(download.status, 200);
      assert.equal(download.sha256, created.version.sha256, 'the digest comes from Repr-Digest');
      assert.equal(download.filename, `${slug}-1.0.0.zip`);
      assert.equal(download.size, first.length);
      const bytes = Buffer.from(await new Response(download.body).arrayBuffer());
      assert.deepEqual(bytes, first);
      const cached = await anonymous.versions.download(slug, '1.0.0', { ifNoneMatch: download.etag ?? '' });
      assert.deepEqual([cached.status, cached.body], [304, null]);
      const range = await anonymous.versions.download(slug, '1.0.0', { range: { start: 0, end: 3 } });
      assert.equal(range.status, 206);
      assert.deepEqual(Buffer.from(await new Response(range.body).arrayBuffer()), first.subarray(0, 4));

      const saved = path.join(work, `${slug}.zip`);
      const result = await anonymous.versions.downloadToFile(slug, '1.0.0', saved, { expectedSha256: created.version.sha256 });
      assert.deepEqual([result.sha256, result.size], [created.version.sha256, first.length]);
      assert.deepEqual(readFileSync(saved), first);
      const wrong = path.join(work, `${slug}-wrong.zip`);
      await assert.rejects(
        anonymous.versions.downloadToFile(slug, '1.0.0', wrong, { expectedSha256: '0'.repeat(64) }),
        (error: unknown) =>
          error instanceof IntegrityError &&
          error.code === 'integrity_mismatch' &&
          error.actual === created.version.sha256 &&
          error.request_id !== null,
      );
      assert.throws(() => readFileSync(wrong), /ENOENT/, 'a refused download leaves no file');

      // Local failures are typed too: a package that cannot be read, a file that cannot be written.
      await assert.rejects(
        client.versions.upload(slug, { version: '3.0.0' }, { path: path.join(work, 'missing.zip') }),
        (error: unknown) => error instanceof UploadSourceError && error.code === 'upload_source_failed' && error.detail.includes('ENOENT'),
      );
      // eslint-disable-next-line @typescript-eslint/require-await -- an upload stream is an async iterable; this one fails without waiting
      async function* failing(): AsyncGenerator<Uint8Array> {
        yield first.subarray(0, 100);
        throw new Error('disk went away');
      }
      await assert.rejects(
        client.versions.upload(slug, { version: '3.0.0' }, { stream: failing() }),
        (error: unknown) => error instanceof UploadSourceError && error.detail === 'The package could not be read: disk went away',
      );
      await assert.rejects(
        anonymous.versions.downloadToFile(slug, '1.0.0', saved),
        (error: unknown) => error instanceof LocalFileError && error.code === 'local_file_failed' && error.detail.includes('EEXIST'),
      );
      assert.deepEqual(readFileSync(saved), first, 'an existing file is left alone');
      assert.ok(!(await client.versions.list(slug)).items.some((v) => v.version === '3.0.0'), 'a failed upload stores nothing');

      // Counted once the body has gone out; stats flush pending counts first.
      const stats = await client.skills.stats(slug, { days: 3 });
      assert.equal(stats.daily.length, 3);
      assert.ok(stats.total_downloads >= 2);
    });

    it('feedback, call logs and admin endpoints', async () => {
      const slug = uniqueName('fb-');
      await client.versions.createSkill(
        { name: 'Feedback Skill', slug, version: '1.0.0' },
        await zip([{ path: 'SKILL.md', content: skillMdText(slug) }]),
      );
      await problem(() => client.feedback.submit({ skill_id: slug, rating: 4 }), 404, 'skill_not_found');
      const published: Skill = await admin.admin.setSkillStatus(slug, { status: 'published' });
      assert.equal(published.status, 'published');
      assert.equal((await admin.admin.setFeatured(slug, { featured: true })).featured, true);
      const given = await createClient({ baseUrl: registry.url }).feedback.submit({
        skill_id: slug,
        rating: 4,
        comment: 'Typed',
        version: '1.0.0',
      });
      assert.deepEqual([given.rating, given.author], [4, null]);
      const received = await client.feedback.list(slug, { rating: 4 });
      assert.deepEqual(received.summary, { count: 1, average_rating: 4 });
      await problem(() => client.feedback.submit({ skill_id: slug }), 400, 'validation_failed');

      const missing = await problem(() => client.skills.get('no-such-typed-skill'), 404, 'skill_not_found');
      await flushBackgroundWrites(registry.t);
      const calls = await client.logs.list({ status_code: '4xx' });
      const logged = calls.items.find((c) => c.request_id === missing.request_id);
      assert.ok(logged, "the problem's request id is the call log's");
      assert.equal((await client.logs.get(missing.request_id!)).status_code, 404);
      await problem(() => client.logs.list({ from: 'not a date' }), 400, 'validation_failed');

      const username = uniqueName('adm');
      const user = await admin.admin.createUser({ username, email: `${username}@example.com`, password: 'admin-created-1' });
      assert.ok((await admin.admin.listUsers({ q: username })).items.some((u) => u.id === user.id));
      assert.equal((await admin.admin.updateUser(user.id, { disabled: true })).disabled, true);
      await problem(() => client.admin.listUsers(), 403, 'admin_session_required');
      await problem(() => admin.admin.setSkillStatus(slug, { status: 'draft' }), 409, 'invalid_transition');
    });

    it('the review queue, declining a draft, and publishing only with a version', async () => {
      const bare = uniqueName('bare-');
      await client.skills.create({ name: 'Bare Skill', slug: bare });
      await problem(() => admin.admin.setSkillStatus(bare, { status: 'published' }), 409, 'no_installable_version');
      const slug = uniqueName('rv-');
      await client.versions.createSkill(
        { name: 'Reviewed Skill', slug, version: '1.0.0' },
        await zip([{ path: 'SKILL.md', content: skillMdText(slug) }]),
      );
      const waiting = await admin.admin.reviewQueue({ page_size: 100 });
      assert.equal(waiting.items.find((item) => item.skill.slug === slug)?.newest_version?.scan?.verdict, 'clean');
      const declined = await admin.admin.declineSkill(slug, { reason: 'Add an example.' });
      assert.equal(declined.declined?.reason, 'Add an example.');
      assert.equal((await client.skills.get(slug)).declined?.reason, 'Add an example.');
      const requested = await admin.admin.reviewQueue({ state: 'changes_requested', page_size: 100 });
      assert.ok(requested.items.some((item) => item.skill.slug === slug));
      await problem(() => client.admin.declineSkill(slug, { reason: 'Mine.' }), 403, 'admin_session_required');
      await problem(() => admin.admin.declineSkill(slug, { reason: ' ' }), 400, 'validation_failed');
      assert.equal((await admin.admin.setSkillStatus(slug, { status: 'published' })).declined, null);
      await problem(() => admin.admin.declineSkill(slug, { reason: 'Too late.' }), 409, 'not_draft');
    });

    it('reports, rescans and rescan jobs', async () => {
      const slug = uniqueName('rp-');
      await client.versions.createSkill(
        { name: 'Reported Skill', slug, version: '1.0.0' },
        await zip([{ path: 'SKILL.md', content: skillMdText(slug) }]),
      );
      await admin.admin.setSkillStatus(slug, { status: 'published' });
      const reporter = createClient({ baseUrl: registry.url, apiKey: (await uploader(registry.t)).key });

      const filed = await reporter.skills.report(slug, { reason: 'spam', details: 'Typed report' });
      assert.deepEqual([filed.reason, filed.details, filed.state], ['spam', 'Typed report', 'open']);
      await problem(() => reporter.skills.report(slug, { reason: 'broken' }), 409, 'already_reported');
      await problem(() => client.skills.report(slug, { reason: 'spam' }), 403, 'own_skill');
      await problem(() => reporter.skills.report(slug, { reason: 'other' }), 400, 'validation_failed');

      const queue = await admin.admin.reports();
      const queued = queue.items.find((item) => item.skill.slug === slug);
      assert.deepEqual([queued?.reporters, queued?.reasons], [1, [{ reason: 'spam', count: 1 }]]);
      const reports = await admin.admin.skillReports(slug);
      assert.deepEqual(
        reports.items.map((r) => [r.id, r.reason]),
        [[filed.id, 'spam']],
      );
      const resolved = await admin.admin.resolveReports(slug, { resolution: 'dismissed', note: 'Not spam' });
      assert.deepEqual([resolved.resolved, resolved.resolution, resolved.status], [1, 'dismissed', 'published']);
      await problem(() => admin.admin.resolveReports(slug, { resolution: 'dismissed' }), 409, 'no_open_reports');
      assert.equal((await admin.admin.skillReports(slug, { state: 'resolved' })).items[0]?.resolution_note, 'Not spam');
      await problem(() => client.admin.reports(), 403, 'admin_session_required');

      const rescanned = await client.versions.rescan(slug, '1.0.0', { explanation: 'Only instructions.' });
      assert.equal(rescanned.explanation?.text, 'Only instructions.');
      assert.equal((await client.versions.rescan(slug, '1.0.0')).explanation?.text, 'Only instructions.', 'kept without one');
      await problem(() => reporter.versions.rescan(slug, '1.0.0'), 403, 'not_owner');

      const job = await admin.admin.startRescan();
      assert.equal(job.state, 'running');
      assert.ok(job.total >= 1);
      await problem(() => admin.admin.startRescan(), 409, 'scan_job_running');
      await problem(() => client.admin.startRescan(), 403, 'admin_session_required');
      await registry.t.runtime.jobs.runNow('queue');
      const finished = await admin.admin.rescanJob(job.id);
      assert.deepEqual([finished.state, finished.done + finished.failed, finished.pending], ['finished', job.total, 0]);
      await problem(() => admin.admin.rescanJob('no-such-job'), 404, 'scan_job_not_found');
    });

    it('organisations: create, invite, answer, roles, scoped skills by @scope/slug, history, leave and delete', async () => {
      const handle = uniqueName('org-');
      const org = await client.orgs.create({ handle, display_name: 'Typed Org' });
      assert.deepEqual([org.handle, org.display_name, org.role], [handle, 'Typed Org', 'owner']);
      assert.equal((await createClient({ baseUrl: registry.url }).orgs.get(handle)).role, null);
      assert.equal((await client.orgs.update(handle, { display_name: 'Typed Org Renamed' })).display_name, 'Typed Org Renamed');
      await problem(() => client.orgs.create({ handle }), 409, 'handle_taken');
      await problem(() => client.orgs.get(uniqueName('no-org-')), 404, 'org_not_found');

      const bobUser = await uploader(registry.t);
      const bob = createClient({ baseUrl: registry.url, apiKey: bobUser.key });
      const carol = createClient({ baseUrl: registry.url, apiKey: (await uploader(registry.t)).key });
      const invited = await client.orgs.invite(handle, { username: bobUser.username, role: 'publisher' });
      assert.deepEqual([invited.organisation, invited.username, invited.role], [handle, bobUser.username, 'publisher']);
      assert.deepEqual(
        (await client.orgs.invitations(handle)).items.map((i) => i.id),
        [invited.id],
      );
      assert.deepEqual(
        (await bob.me.invitations.list()).items.map((i) => i.id),
        [invited.id],
      );
      await problem(() => carol.me.invitations.accept(invited.id), 403, 'not_invitee');
      assert.equal((await bob.me.invitations.accept(invited.id)).role, 'publisher');
      await problem(() => bob.me.invitations.accept(invited.id), 404, 'invitation_not_found');
      assert.deepEqual(
        (await bob.me.orgs()).items.map((o) => [o.handle, o.role]),
        [[handle, 'publisher']],
      );
      const declined = await client.orgs.invite(handle, { username: (await carol.me.get()).user.username, role: 'admin' });
      await carol.me.invitations.decline(declined.id);
      const withdrawn = await client.orgs.invite(handle, { username: (await carol.me.get()).user.username, role: 'admin' });
      await client.orgs.withdrawInvitation(handle, withdrawn.id);
      await problem(() => carol.me.invitations.accept(withdrawn.id), 404, 'invitation_not_found');
      await problem(() => client.orgs.invite(handle, { username: bobUser.username, role: 'admin' }), 409, 'already_member');
      await problem(() => carol.orgs.members(handle), 403, 'org_role_required');

      assert.equal((await client.orgs.setRole(handle, bobUser.username, { role: 'admin' })).role, 'admin');
      assert.deepEqual(
        (await bob.orgs.members(handle)).items.map((m) => [m.username, m.role]).sort(),
        [
          [bobUser.username, 'admin'],
          [owner.username, 'owner'],
        ].sort(),
      );
      await problem(() => client.orgs.setRole(handle, owner.username, { role: 'publisher' }), 409, 'last_owner');
      await problem(() => client.orgs.removeMember(handle, owner.username), 409, 'last_owner');

      // A skill in the organisation's scope, named @handle/slug; the client encodes the name as one path segment.
      const sent: string[] = [];
      const recording = createClient({
        baseUrl: registry.url,
        apiKey: bobUser.key,
        fetch: (input, init) => {
          sent.push(input instanceof Request ? input.url : input instanceof URL ? input.href : input);
          return fetch(input, init);
        },
      });
      const slug = uniqueName('scoped-');
      const fullName = `@${handle}/${slug}`;
      const created = await recording.versions.createSkill(
        { name: 'Scoped Skill', slug, scope: handle, version: '1.0.0' },
        await zip([{ path: 'SKILL.md', content: skillMdText(slug) }]),
      );
      assert.deepEqual(
        [created.skill.scope, created.skill.full_name, created.skill.owner.kind, created.skill.owner.handle],
        [handle, fullName, 'organisation', handle],
      );
      assert.equal((await recording.skills.get(fullName)).id, created.skill.id);
      assert.ok(sent.at(-1)?.endsWith(`/v1/skills/%40${handle}%2F${slug}`), sent.at(-1));
      assert.equal(
        (await client.versions.upload(fullName, { version: '1.1.0' }, await zip([{ path: 'SKILL.md', content: skillMdText(slug) }])))
          .version,
        '1.1.0',
      );
      assert.deepEqual(
        (await client.versions.list(fullName)).items.map((v) => v.version),
        ['1.1.0', '1.0.0'],
      );
      assert.equal((await client.skills.create({ name: 'Mine', slug, scope: owner.username })).full_name, `@${owner.username}/${slug}`);
      await problem(() => carol.skills.create({ name: 'No', slug: uniqueName('no-'), scope: handle }), 403, 'scope_not_allowed');
      assert.deepEqual(
        (await client.orgs.skills(handle, { status: 'draft' })).items.map((s) => s.full_name),
        [fullName],
      );
      await problem(() => client.orgs.delete(handle), 409, 'org_owns_skills');

      const history = await client.orgs.history(handle);
      for (const action of ['org.create', 'org.invite', 'org.invitation.accept', 'org.invitation.decline', 'org.role'])
        assert.ok(
          history.items.some((h) => h.action === action),
          action,
        );
      await bob.orgs.removeMember(handle, bobUser.username);
      await problem(() => bob.orgs.members(handle), 403, 'org_role_required');
      await client.skills.delete(fullName);
      await client.orgs.delete(handle);
      await problem(() => client.orgs.get(handle), 404, 'org_not_found');
    });

    it('an unreachable registry is a ConnectionError; a bare error answer still becomes a ProblemError', async () => {
      const address = await closedAddress();
      const nowhere = createClient({ baseUrl: address });
      await assert.rejects(nowhere.skills.list(), (error: unknown) => {
        assert.ok(error instanceof ConnectionError);
        assert.equal(error.status, null);
        assert.equal(error.code, 'connection_failed');
        assert.ok(error.detail.startsWith(`Could not reach the registry at ${address}: `), error.detail);
        assert.match(error.detail, /ECONNREFUSED/);
        return true;
      });
      // A proxy in front of the registry may answer with HTML.
      const proxied = createClient({
        baseUrl: 'http://registry.invalid',
        fetch: () =>
          Promise.resolve(
            new Response('<html><body>Bad gateway</body></html>', {
              status: 502,
              statusText: 'Bad Gateway',
              headers: { 'content-type': 'text/html' },
            }),
          ),
      });
      const bare = await proxied.skills.list().catch((error: unknown) => error);
      assert.ok(bare instanceof ProblemError);
      assert.deepEqual([bare.status, bare.code, bare.request_id], [502, 'http_502', null]);
      assert.match(bare.detail, /^The registry answered 502 Bad Gateway: <html><body>Bad gateway/);
      // A registry that moved is reported with its new address; nothing is sent there.
      const moved = createClient({
        baseUrl: 'http://registry.invalid',
        fetch: () =>
          Promise.resolve(
            new Response(null, {
              status: 301,
              statusText: 'Moved Permanently',
              headers: { location: 'https://registry.example/v1/skills' },
            }),
          ),
      });
      const redirected = await moved.skills.list().catch((error: unknown) => error);
      assert.ok(redirected instanceof ProblemError);
      assert.deepEqual([redirected.status, redirected.code], [301, 'redirected']);
      assert.match(redirected.detail, /moved to https:\/\/registry\.example\/v1\/skills; use that address instead\.$/);
    });
  });
}
