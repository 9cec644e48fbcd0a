// A real `serve` process under a steady load of writes, reads and downloads, while its PostgreSQL sessions are
// terminated again and again, and while it is restarted with SIGTERM: every answer is a success or a 503
// problem, the process stays up, and every write it acknowledged (downloads included) is in the database.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { DatabaseConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { multipart, skillMd, zip } from '../helpers/archives.js';
import { ADMIN } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { databaseUrl, startRegistryProcess, type RegistryProcess } from '../helpers/process.js';
import { POSTGRES_ONLY, POSTGRES_URL, terminateSessions } from './postgres-sessions.js';

const adminUrl = POSTGRES_URL;

interface Tally {
  /** Slugs of skills whose creation was answered 201. */
  created: string[];
  /** Downloads answered 200 whose whole body arrived. */
  downloads: number;
  /** Downloads that failed after they may have been counted (the body cut short). */
  cutDownloads: number;
  statuses: Map<number, number>;
  /** Answers that were neither a success nor a 503 problem, and requests that failed while the server was up. */
  wrong: string[];
  /** Requests refused at the socket while no process listened (between a stop and the next start). */
  refused: number;
  /** 503 answers of a server that was closing (see `judge`). */
  closing: number;
}

async function signIn(base: string): Promise<string> {
  const res = await fetch(`${base}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login: ADMIN.username, password: ADMIN.password }),
  });
  assert.equal(res.status, 200, await res.text());
  return /session_token=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')![1]!;
}

/** An API key of the admin, and a published skill with one version to download. */
async function seed(base: string): Promise<{ key: string; download: string }> {
  const cookie = `session_token=${await signIn(base)}`;
  const keyRes = await fetch(`${base}/v1/me/api-keys`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'load', scopes: ['skill:upload'] }),
  });
  assert.equal(keyRes.status, 201);
  const { key } = (await keyRes.json()) as { key: string };
  const slug = `fault-dl-${process.pid}-${Date.now()}`;
  const created = await fetch(`${base}/v1/skills`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Fault download', slug }),
  });
  assert.equal(created.status, 201, await created.text());
  const archive = await zip([{ path: 'SKILL.md', content: skillMd() }]);
  const body = multipart({ version: '1.0.0' }, { content: archive });
  const uploaded = await fetch(`${base}/v1/skills/${slug}/versions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, ...body.headers },
    body: body.payload,
  });
  assert.equal(uploaded.status, 201, await uploaded.text());
  const published = await fetch(`${base}/v1/admin/skills/${slug}/status`, {
    method: 'PATCH',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ status: 'published' }),
  });
  assert.equal(published.status, 200, await published.text());
  return { key, download: `/v1/skills/${slug}/versions/1.0.0/download` };
}

/**
 * `workers` loops of create-a-skill and download against `target().base` until `stop` resolves. Only the
 * requests the server answered count; a socket refused while no process listens (`restarting()`) is tallied apart.
 */
function load(
  target: () => string,
  auth: { key: string; download: string },
  options: { workers: number; restarting: () => boolean },
): { stop(): Promise<Tally>; answered(count: number): Promise<void> } {
  const tally: Tally = { created: [], downloads: 0, cutDownloads: 0, statuses: new Map(), wrong: [], refused: 0, closing: 0 };
  let running = true;
  let n = 0;
  // Requests ended (answered or refused), and who waits for a number of them: traffic is measured in requests, not time.
  let ended = 0;
  const waiting: { at: number; resolve: () => void }[] = [];
  function requestEnded(): void {
    ended += 1;
    for (const w of waiting.filter((w) => w.at <= ended)) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve();
    }
  }
  const run = Math.random().toString(36).slice(2, 8);

  async function judge(res: Response, what: string, restarting: boolean): Promise<boolean> {
    tally.statuses.set(res.status, (tally.statuses.get(res.status) ?? 0) + 1);
    if (res.status >= 200 && res.status < 300) return true;
    const text = await res.text();
    const type = res.headers.get('content-type') ?? '';
    if (res.status === 503 && type.startsWith('application/problem+json')) {
      // A request that reaches a closing server on a kept-alive socket is refused with `shutting_down` and
      // Connection: close; nothing was done, so the client may retry elsewhere. Only while it restarts.
      const code = (JSON.parse(text) as { code?: string }).code;
      if (code === 'shutting_down') {
        if (restarting && res.headers.get('connection') === 'close') tally.closing += 1;
        else tally.wrong.push(`${what}: shutting_down outside a restart: ${text}`);
      }
      return false;
    }
    tally.wrong.push(`${what}: ${res.status} ${type} ${text}`);
    return false;
  }

  async function worker(index: number): Promise<void> {
    while (running) {
      n += 1;
      const restarting = options.restarting();
      try {
        if ((n + index) % 2 === 0) {
          const slug = `fault-${run}-${index}-${n}`;
          const res = await fetch(`${target()}/v1/skills`, {
            method: 'POST',
            headers: { authorization: `Bearer ${auth.key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ name: `Fault ${n}`, slug }),
            signal: AbortSignal.timeout(15_000),
          });
          if (await judge(res, `create ${slug}`, restarting || options.restarting())) {
            await res.arrayBuffer();
            tally.created.push(slug);
          }
        } else {
          const res = await fetch(`${target()}${auth.download}`, { signal: AbortSignal.timeout(15_000) });
          if (await judge(res, 'download', restarting || options.restarting())) {
            try {
              await res.arrayBuffer();
              tally.downloads += 1;
            } catch {
              tally.cutDownloads += 1;
            }
          }
        }
      } catch (error) {
        if (restarting || options.restarting()) tally.refused += 1;
        else tally.wrong.push(`request failed while the server was up: ${String(error)}`);
      }
      requestEnded();
    }
  }

  const done = Promise.all(Array.from({ length: options.workers }, (_, i) => worker(i)));
  return {
    async stop() {
      running = false;
      await done;
      return tally;
    },
    /** Resolves once `count` more requests have ended (a stalled server fails the test at its time limit). */
    answered(count: number): Promise<void> {
      return new Promise((resolve) => waiting.push({ at: ended + count, resolve }));
    },
  };
}

/** What the database holds: which of `slugs` exist, and the download total of the seeded version. */
async function stored(database: DatabaseConfig, slugs: string[], download: string): Promise<{ missing: string[]; downloads: number }> {
  const handle = openDatabase(database);
  try {
    const present = new Set<string>();
    for (let i = 0; i < slugs.length; i += 500) {
      const rows = await handle.db
        .selectFrom('skills')
        .select('slug')
        .where('slug', 'in', slugs.slice(i, i + 500))
        .execute();
      for (const row of rows) present.add(row.slug);
    }
    const slug = download.split('/')[3]!;
    const row = await handle.db
      .selectFrom('versions')
      .innerJoin('skills', 'skills.id', 'versions.skill_id')
      .select('versions.downloads')
      .where('skills.slug', '=', slug)
      .executeTakeFirstOrThrow();
    return { missing: slugs.filter((s) => !present.has(s)), downloads: row.downloads };
  } finally {
    await handle.close();
  }
}

function environment(database: DatabaseConfig, dataDir: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl(database),
    DATA_DIR: dataDir,
    RATE_LIMIT: 'off',
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    ADMIN_EMAIL: ADMIN.email,
  };
}

const running: RegistryProcess[] = [];
after(async () => {
  for (const registry of running) if (registry.child.exitCode === null) await registry.stop().catch(() => undefined);
});

describe('a serve process while its PostgreSQL sessions are terminated under load', { timeout: 180_000, ...POSTGRES_ONLY }, () => {
  test('every answer is a success or a 503 problem, the process stays up, and every acknowledged write is stored', async () => {
    const backend = backends().find((b) => b.name === 'postgres')!;
    const store = await backend.create();
    try {
      const registry = await startRegistryProcess(environment(store.database, store.dataDir));
      running.push(registry);
      const auth = await seed(registry.base);
      const traffic = load(() => registry.base, auth, { workers: 8, restarting: () => false });
      let terminated = 0;
      // A bounded series of terminations, each of every session the registry has, requests in flight or not, with
      // traffic answered between them.
      for (let i = 0; i < 20; i += 1) {
        terminated += await terminateSessions(adminUrl, store.applicationName!, 'all');
        await traffic.answered(8);
      }
      const tally = await traffic.stop();
      assert.ok(terminated > 0, 'sessions were terminated');
      assert.deepEqual(tally.wrong, [], `unexpected answers; statuses ${JSON.stringify([...tally.statuses])}\n${registry.stderr()}`);
      assert.equal(registry.child.exitCode, null, `the process is still running:\n${registry.stderr()}`);
      assert.ok(tally.created.length > 0, `some writes succeeded: ${JSON.stringify([...tally.statuses])}`);

      // Afterwards everything works again.
      const ready = await fetch(`${registry.base}/readyz`);
      assert.equal(ready.status, 200, await ready.text());
      const after = load(() => registry.base, auth, { workers: 2, restarting: () => false });
      await after.answered(20);
      const calm = await after.stop();
      assert.deepEqual(calm.wrong, []);
      assert.deepEqual(
        [...calm.statuses.keys()].filter((s) => s >= 300),
        [],
        'no failures once the database is left alone',
      );

      assert.equal(await registry.stop(), 0, registry.stderr());
      const result = await stored(store.database, [...tally.created, ...calm.created], auth.download);
      assert.deepEqual(result.missing, [], 'every acknowledged skill is stored');
      const counted = tally.downloads + calm.downloads;
      assert.ok(
        result.downloads >= counted && result.downloads <= counted + tally.cutDownloads + calm.cutDownloads,
        `downloads stored ${result.downloads}, answered ${counted}`,
      );
    } finally {
      await store.dispose();
    }
  });
});

for (const backend of backends()) {
  describe(`a serve process restarted with SIGTERM under load [${backend.name}]`, { timeout: 180_000 }, () => {
    test('no acknowledged write is lost, download counts included', async () => {
      const store = await backend.create();
      try {
        const env = environment(store.database, store.dataDir);
        let registry = await startRegistryProcess(env);
        running.push(registry);
        const auth = await seed(registry.base);
        let restarting = false;
        const traffic = load(() => registry.base, auth, { workers: 6, restarting: () => restarting });
        await traffic.answered(60);
        restarting = true;
        assert.equal(await registry.stop(), 0, `a clean exit:\n${registry.stderr()}`);
        registry = await startRegistryProcess(env);
        running.push(registry);
        restarting = false;
        await traffic.answered(60);
        restarting = true;
        assert.equal(await registry.stop(), 0, `a clean exit:\n${registry.stderr()}`);
        const tally = await traffic.stop();

        assert.deepEqual(tally.wrong, [], `unexpected answers; statuses ${JSON.stringify([...tally.statuses])}`);
        assert.ok(tally.created.length > 0 && tally.downloads > 0, `work was done: ${JSON.stringify([...tally.statuses])}`);
        const result = await stored(store.database, tally.created, auth.download);
        assert.deepEqual(result.missing, [], 'every acknowledged skill is stored');
        assert.ok(
          result.downloads >= tally.downloads && result.downloads <= tally.downloads + tally.cutDownloads,
          `downloads stored ${result.downloads}, answered ${tally.downloads} (+${tally.cutDownloads} cut short)`,
        );
      } finally {
        await store.dispose();
      }
    });
  });
}
