import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createClient } from '@skill-registry/client';
import { uniqueName } from '../helpers/client.js';
import {
  cli,
  cliBackend,
  closedAddress,
  parsed,
  publishAsAdmin,
  removeDir,
  skillMdText,
  startRegistry,
  tempDir,
  uploader,
  type Registry,
} from './harness.js';
import { zip } from '../helpers/archives.js';
import { flushBackgroundWrites } from '../helpers/background.js';

type Uploader = Awaited<ReturnType<typeof uploader>>;

function configFile(home: string): string {
  return path.join(home, '.config', 'skill-registry', 'config.json');
}

const backend = cliBackend();

describe(`command line: accounts, browsing, feedback and logs (${backend.name})`, () => {
  let registry: Registry;
  let alice: Uploader;
  let skill: string;

  before(async () => {
    registry = await startRegistry(backend);
    alice = await uploader(registry.t);
    // A published skill with two versions, set up through the typed client.
    skill = uniqueName('browse-');
    const client = createClient({ baseUrl: registry.url, apiKey: alice.key });
    const pkg = (description: string) => zip([{ path: 'SKILL.md', content: skillMdText(skill, description) }]);
    await client.versions.createSkill(
      {
        name: 'Browse Tools',
        slug: skill,
        version: '1.0.0',
        description: 'Find zebras in spreadsheets',
        tags: ['zebra', 'sheets'],
        category: 'data',
      },
      await pkg('First.'),
    );
    await client.versions.upload(skill, { version: '1.1.0', changelog: 'Faster zebras' }, await pkg('Second.'));
    await publishAsAdmin(registry.t, skill);
  });
  after(async () => {
    await registry.close();
  });

  it('login with a bad key fails with exit code 3 and the registry detail, and stores nothing', async () => {
    const home = tempDir();
    try {
      const result = await cli(['login', '--registry', registry.url], { home, input: 'skreg_thisIsNotAKeyTheRegistryKnows000000000000\n' });
      assert.equal(result.code, 3);
      assert.match(result.stderr, /^error: .+/m);
      assert.match(result.stderr, /request id: \S+/);
      assert.ok(!existsSync(configFile(home)), 'nothing stored');

      const empty = await cli(['login', '--registry', registry.url], { home, input: '\n' });
      assert.equal(empty.code, 2);
      assert.match(empty.stderr, /No API key given/);
    } finally {
      removeDir(home);
    }
  });

  it('login stores the checked key (0600, in a 0700 folder); commands use it with no environment; logout forgets it', async () => {
    const home = tempDir();
    try {
      const result = await cli(['login', '--registry', `${registry.url}/`, '--json'], { home, input: `${alice.key}\n` });
      assert.equal(result.code, 0, result.stderr);
      const body = parsed<{ registry: string; user: { username: string }; auth: { kind: string; scopes: string[] } }>(result);
      assert.equal(body.registry, registry.url, 'the address is stored normalised');
      assert.equal(body.user.username, alice.username);
      assert.deepEqual(body.auth, { kind: 'api_key', scopes: ['skill:upload'], api_key_id: alice.keyId });
      const file = configFile(home);
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.equal(statSync(path.dirname(file)).mode & 0o777, 0o700);
      const stored = JSON.parse(readFileSync(file, 'utf8')) as {
        registry: string;
        credentials: Record<string, { api_key: string; username: string }>;
      };
      assert.equal(stored.registry, registry.url);
      assert.equal(stored.credentials[registry.url]?.api_key, alice.key);
      assert.equal(stored.credentials[registry.url]?.username, alice.username);

      const whoami = await cli(['whoami'], { home });
      assert.equal(whoami.code, 0, whoami.stderr);
      assert.equal(whoami.stdout, `${alice.username} at ${registry.url}, with an API key, scopes: skill:upload.\n`);

      // SKILL_REGISTRY_TOKEN wins over the stored key.
      const bob = await uploader(registry.t);
      const asBob = await cli(['whoami', '--json'], { home, env: { SKILL_REGISTRY_TOKEN: bob.key } });
      assert.equal(asBob.code, 0, asBob.stderr);
      assert.equal(parsed<{ user: { username: string }; credentials: string }>(asBob).user.username, bob.username);
      assert.equal(parsed<{ credentials: string }>(asBob).credentials, 'SKILL_REGISTRY_TOKEN');

      // The stored key belongs to its registry: another address never receives it.
      const elsewhere = await cli(['whoami', '--registry', 'http://127.0.0.1:1'], { home });
      assert.equal(elsewhere.code, 3);
      assert.match(elsewhere.stderr, /Not logged in to http:\/\/127\.0\.0\.1:1/);

      const logout = await cli(['logout'], { home });
      assert.equal(logout.code, 0, logout.stderr);
      assert.match(logout.stdout, new RegExp(`Logged out of ${registry.url.replace(/[.]/g, '\\.')}`));
      const after = JSON.parse(readFileSync(file, 'utf8')) as { credentials: Record<string, unknown> };
      assert.deepEqual(after.credentials, {});
      const again = await cli(['logout', '--json'], { home });
      assert.equal(again.code, 0, again.stderr);
      assert.deepEqual(parsed(again), { registry: registry.url, logged_out: false, api_key_id: null });
      const anonymous = await cli(['whoami', '--json'], { home });
      assert.equal(anonymous.code, 3);
      assert.match(parsed<{ error: { detail: string } }>(anonymous).error.detail, /Not logged in/);
      // The registry stays the default for commands that need no key.
      const search = await cli(['search', 'zebras', '--json'], { home });
      assert.equal(search.code, 0, search.stderr);
    } finally {
      removeDir(home);
    }
  });

  it('login --username signs in with the password, creates a key for this machine, and stores it', async () => {
    const home = tempDir();
    try {
      const result = await cli(['login', '--registry', registry.url, '--username', alice.username, '--json'], {
        home,
        input: `${alice.password}\n`,
      });
      assert.equal(result.code, 0, result.stderr);
      const body = parsed<{ auth: { kind: string; scopes: string[]; api_key_id: string } }>(result);
      assert.equal(body.auth.kind, 'api_key');
      assert.deepEqual(body.auth.scopes, ['skill:upload']);

      const keys = await cli(['keys', 'list', '--json'], { home, env: { SKILL_REGISTRY_PASSWORD: alice.password } });
      assert.equal(keys.code, 0, keys.stderr);
      const created = parsed<{ items: { id: string; name: string }[] }>(keys).items.find((k) => k.id === body.auth.api_key_id);
      assert.equal(created?.name, `skill-registry CLI on ${hostname()}`.slice(0, 100));

      const wrong = await cli(['login', '--registry', registry.url, '--username', alice.username], { home, input: 'not-the-password\n' });
      assert.equal(wrong.code, 3);
      assert.match(wrong.stderr, /^error: /m);
    } finally {
      removeDir(home);
    }
  });

  it('keys create, list and revoke sign in by password; the secret is printed once and a revoked key stops working', async () => {
    const home = tempDir();
    const env = { SKILL_REGISTRY_URL: registry.url, SKILL_REGISTRY_PASSWORD: alice.password };
    try {
      const created = await cli(
        ['keys', 'create', 'ci', '--scope', 'skill:upload', '--expires-days', '30', '--username', alice.username, '--json'],
        { home, env },
      );
      assert.equal(created.code, 0, created.stderr);
      const key = parsed<{ id: string; key: string; scopes: string[]; expires_at: string }>(created);
      assert.match(key.key, /^skreg_/);
      assert.deepEqual(key.scopes, ['skill:upload']);
      assert.ok(key.expires_at);

      const human = await cli(['keys', 'create', 'read-only', '--username', alice.username], { home, env });
      assert.equal(human.code, 0, human.stderr);
      assert.match(human.stdout, /scopes: none/);
      assert.match(human.stdout, /^skreg_\w+$/m);

      const list = await cli(['keys', 'list', '--username', alice.username], { home, env });
      assert.equal(list.code, 0, list.stderr);
      assert.match(list.stdout, /^ID\s+NAME\s+PREFIX/m);
      assert.match(list.stdout, new RegExp(`^${key.id}\\s+ci\\s+`, 'm'));
      assert.ok(!list.stdout.includes(key.key), 'the secret is never listed');

      const whoami = await cli(['whoami'], { home, env: { SKILL_REGISTRY_URL: registry.url, SKILL_REGISTRY_TOKEN: key.key } });
      assert.equal(whoami.code, 0, whoami.stderr);

      const revoked = await cli(['keys', 'revoke', key.id, '--username', alice.username, '--json'], { home, env });
      assert.equal(revoked.code, 0, revoked.stderr);
      assert.deepEqual(parsed(revoked), { revoked: key.id });
      const listed = await cli(['keys', 'list', '--username', alice.username, '--json'], { home, env });
      assert.ok(!parsed<{ items: { id: string }[] }>(listed).items.some((k) => k.id === key.id));
      // Revoking through the registry forgets the remembered key at once; no need to outlive its memory.
      const refused = await cli(['whoami'], { home, env: { SKILL_REGISTRY_URL: registry.url, SKILL_REGISTRY_TOKEN: key.key } });
      assert.equal(refused.code, 3);

      const again = await cli(['keys', 'revoke', key.id, '--username', alice.username], { home, env });
      assert.equal(again.code, 4);
      const noUser = await cli(['keys', 'list'], { home, env });
      assert.equal(noUser.code, 2);
      assert.match(noUser.stderr, /--username/);
      const badScope = await cli(['keys', 'create', 'x', '--scope', 'admin', '--username', alice.username], { home, env });
      assert.equal(badScope.code, 2);
    } finally {
      removeDir(home);
    }
  });

  it('search, info and versions print tables for people and JSON for scripts', async () => {
    const home = tempDir();
    const env = { SKILL_REGISTRY_URL: registry.url };
    try {
      const found = await cli(['search', 'zebras', 'spreadsheets', '--json'], { home, env });
      assert.equal(found.code, 0, found.stderr);
      const list = parsed<{ items: { slug: string; latest_version: string }[]; total: number }>(found);
      assert.deepEqual(
        list.items.map((s) => [s.slug, s.latest_version]),
        [[skill, '1.1.0']],
      );

      const human = await cli(['search', 'zebras', '--tags', 'zebra', '--category', 'data', '--sort', 'downloads'], { home, env });
      assert.equal(human.code, 0, human.stderr);
      assert.match(human.stdout, /^SKILL\s+VERSION\s+DOWNLOADS\s+DESCRIPTION$/m);
      assert.match(human.stdout, new RegExp(`^${skill}\\s+1\\.1\\.0\\s+0\\s+Find zebras in spreadsheets$`, 'm'));
      assert.match(human.stdout, /^1–1 of 1\.$/m);
      const none = await cli(['search', 'no-such-words-anywhere'], { home, env });
      assert.equal(none.stdout, 'No skills found.\n');
      const badSort = await cli(['search', '--sort', 'stars'], { home, env });
      assert.equal(badSort.code, 2);
      assert.match(badSort.stderr, /--sort must be one of relevance, latest, downloads, featured/);
      const relevance = await cli(['search', 'zebras', '--sort', 'relevance'], { home, env });
      assert.equal(relevance.code, 0, relevance.stderr);
      assert.match(relevance.stdout, new RegExp(`^${skill}\\s`, 'm'));
      const relevanceWithoutWords = await cli(['search', '--sort', 'relevance'], { home, env });
      assert.equal(relevanceWithoutWords.code, 2);
      assert.match(relevanceWithoutWords.stderr, /give some words/);
      // No skill holds both words: the best partial matches are listed, and the output says so.
      const partial = await cli(['search', 'zebras', 'xylophonequartet'], { home, env });
      assert.equal(partial.code, 0, partial.stderr);
      assert.match(partial.stdout, /^No skill matches every word of "zebras xylophonequartet"; these match the most of them:$/m);
      assert.match(partial.stdout, new RegExp(`^${skill}\\s`, 'm'));
      assert.doesNotMatch(human.stdout, /No skill matches every word/);

      const info = await cli(['info', skill, '--json'], { home, env });
      assert.equal(info.code, 0, info.stderr);
      const detail = parsed<{ skill: { slug: string; tags: string[] }; latest_version: { version: string; sha256: string } }>(info);
      assert.equal(detail.skill.slug, skill);
      assert.deepEqual(detail.skill.tags, ['zebra', 'sheets']);
      assert.equal(detail.latest_version.version, '1.1.0');
      const infoHuman = await cli(['info', skill], { home, env });
      assert.match(infoHuman.stdout, new RegExp(`^${skill} — Browse Tools$`, 'm'));
      assert.match(infoHuman.stdout, new RegExp(`^Install: skill-registry install ${skill}$`, 'm'));

      const versions = await cli(['versions', skill, '--json'], { home, env });
      assert.equal(versions.code, 0, versions.stderr);
      assert.deepEqual(
        parsed<{ items: { version: string }[] }>(versions).items.map((v) => v.version),
        ['1.1.0', '1.0.0'],
      );
      const versionsHuman = await cli(['versions', skill], { home, env });
      assert.match(versionsHuman.stdout, /^VERSION\s+PUBLISHED\s+SIZE\s+FILES\s+DOWNLOADS\s+SCAN\s+CHANGELOG$/m);
      assert.match(versionsHuman.stdout, /^1\.1\.0\s.*\sclean\s+Faster zebras$/m);

      const missing = await cli(['info', 'no-such-skill', '--json'], { home, env });
      assert.equal(missing.code, 4);
      const problem = parsed<{ error: { status: number; code: string; detail: string; request_id: string } }>(missing).error;
      assert.equal(problem.status, 404);
      assert.equal(problem.code, 'skill_not_found');
      assert.ok(problem.request_id.length > 0);
      assert.match(missing.stderr, new RegExp(`^error: ${problem.detail.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
    } finally {
      removeDir(home);
    }
  });

  it('feedback: a rating and a comment, recorded as the caller; the owner lists what the skill received', async () => {
    const home = tempDir();
    const bob = await uploader(registry.t);
    try {
      const given = await cli(['feedback', skill, '--rating', '5', '--comment', 'Found every zebra', '--version', '1.1.0', '--json'], {
        home,
        env: { SKILL_REGISTRY_URL: registry.url, SKILL_REGISTRY_TOKEN: bob.key },
      });
      assert.equal(given.code, 0, given.stderr);
      const feedback = parsed<{ rating: number; comment: string; version: string; author: { username: string } }>(given);
      assert.deepEqual(
        [feedback.rating, feedback.comment, feedback.version, feedback.author.username],
        [5, 'Found every zebra', '1.1.0', bob.username],
      );

      const anonymous = await cli(['feedback', skill, '--rating', '3'], { home, env: { SKILL_REGISTRY_URL: registry.url } });
      assert.equal(anonymous.code, 0, anonymous.stderr);
      assert.match(anonymous.stdout, new RegExp(`your feedback on ${skill} was recorded\\.`));

      const nothing = await cli(['feedback', skill], { home, env: { SKILL_REGISTRY_URL: registry.url } });
      assert.equal(nothing.code, 2);
      const outOfRange = await cli(['feedback', skill, '--rating', '9'], { home, env: { SKILL_REGISTRY_URL: registry.url } });
      assert.equal(outOfRange.code, 2);
      assert.match(outOfRange.stderr, /--rating must be a whole number from 1 to 5/);

      const listed = await cli(['feedback', skill, '--list', '--json'], {
        home,
        env: { SKILL_REGISTRY_URL: registry.url, SKILL_REGISTRY_TOKEN: alice.key },
      });
      assert.equal(listed.code, 0, listed.stderr);
      const received = parsed<{ summary: { count: number; average_rating: number }; items: { comment: string | null }[] }>(listed);
      assert.deepEqual(received.summary, { count: 2, average_rating: 4 });
      const notOwner = await cli(['feedback', skill, '--list'], {
        home,
        env: { SKILL_REGISTRY_URL: registry.url, SKILL_REGISTRY_TOKEN: bob.key },
      });
      assert.equal(notOwner.code, 3);
    } finally {
      removeDir(home);
    }
  });

  it("logs --status 4xx --since 1h lists the caller's failed calls", async () => {
    const home = tempDir();
    const carol = await uploader(registry.t);
    const env = { SKILL_REGISTRY_URL: registry.url, SKILL_REGISTRY_TOKEN: carol.key };
    try {
      const missing = await cli(['info', 'no-such-skill-for-logs'], { home, env });
      assert.equal(missing.code, 4);
      await cli(['whoami'], { home, env });
      await flushBackgroundWrites(registry.t);
      const result = await cli(['logs', '--status', '4xx', '--since', '1h', '--json'], { home, env });
      assert.equal(result.code, 0, result.stderr);
      const { items } = parsed<{ items: { status_code: number; path: string; method: string }[] }>(result);
      assert.ok(
        items.some((c) => c.path === '/v1/skills/no-such-skill-for-logs' && c.status_code === 404),
        JSON.stringify(items),
      );
      assert.ok(items.every((c) => c.status_code >= 400 && c.status_code < 500));

      const all = await cli(['logs', '--method', 'get', '--limit', '5'], { home, env });
      assert.equal(all.code, 0, all.stderr);
      assert.match(all.stdout, /^TIME\s+METHOD\s+STATUS\s+MS\s+PATH\s+REQUEST ID$/m);
      assert.match(all.stdout, /\s200\s.*\/v1\/me\s/);

      const future = await cli(['logs', '--since', '2999-01-01', '--json'], { home, env });
      assert.deepEqual(parsed<{ items: unknown[] }>(future).items, []);
      const badSince = await cli(['logs', '--since', 'yesterday'], { home, env });
      assert.equal(badSince.code, 2);
      const badStatus = await cli(['logs', '--status', '4x'], { home, env });
      assert.equal(badStatus.code, 2);
      const anonymous = await cli(['logs'], { home, env: { SKILL_REGISTRY_URL: registry.url } });
      assert.equal(anonymous.code, 3);
    } finally {
      removeDir(home);
    }
  });

  it('exit codes: no registry 2, unreachable 6, unknown option or command 2; --help is 0', async () => {
    const home = tempDir();
    try {
      const noRegistry = await cli(['search', 'x'], { home });
      assert.equal(noRegistry.code, 2);
      assert.match(noRegistry.stderr, /No registry given: pass --registry URL, set SKILL_REGISTRY_URL/);
      const address = await closedAddress();
      const unreachable = await cli(['search', '--registry', address, '--json'], { home });
      assert.equal(unreachable.code, 6);
      assert.ok(unreachable.stderr.startsWith(`error: Could not reach the registry at ${address}: `), unreachable.stderr);
      assert.equal(parsed<{ error: { code: string } }>(unreachable).error.code, 'connection_failed');
      const unknownOption = await cli(['search', '--stars', '--registry', registry.url], { home });
      assert.equal(unknownOption.code, 2);
      assert.match(unknownOption.stderr, /Unknown option '--stars'/);
      const unknownCommand = await cli(['frobnicate'], { home });
      assert.equal(unknownCommand.code, 2);
      const help = await cli(['install', '--help'], { home });
      assert.equal(help.code, 0);
      assert.match(help.stdout, /^Usage: skill-registry install SKILL\[@VERSION\]/);
      const overview = await cli(['--help'], { home });
      assert.equal(overview.code, 0);
      assert.match(overview.stdout, /^ {2}publish\s+publish a skill folder/m);
    } finally {
      removeDir(home);
    }
  });
});
