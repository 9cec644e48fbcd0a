import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { DatabaseConfig } from '../../src/config.js';

export type BackendName = 'sqlite' | 'postgres';

export interface Backend {
  name: BackendName;
  /**
   * A fresh, empty database for one test app, and the function that removes it. On PostgreSQL the app's
   * sessions carry `applicationName` (through the URL), so a test can find and terminate exactly its own.
   */
  create(): Promise<{ database: DatabaseConfig; dataDir: string; applicationName?: string; dispose(): Promise<void> }>;
}

const sqlite: Backend = {
  name: 'sqlite',
  create() {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'skreg-test-'));
    return Promise.resolve({
      dataDir,
      database: { kind: 'sqlite', file: path.join(dataDir, 'registry.db') },
      dispose() {
        rmSync(dataDir, { recursive: true, force: true });
        return Promise.resolve();
      },
    });
  },
};

let extensionReady: Promise<void> | undefined;

/** PostgreSQL: one schema per test app inside TEST_DATABASE_URL's database, dropped afterwards. */
function postgres(url: string): Backend {
  const admin = () => new pg.Client({ connectionString: url });
  return {
    name: 'postgres',
    async create() {
      extensionReady ??= (async () => {
        const client = admin();
        await client.connect();
        try {
          // Migration 0001 creates pg_trgm and builds trigram indexes with it (0005 drops them, and builds them
          // again when migrated down). There is one extension per database: created here once, in public, it is
          // seen by every per-test schema (which keeps public on its search_path), and no test schema takes it
          // along when it is dropped.
          await client.query('create extension if not exists pg_trgm with schema public');
        } catch (error) {
          // Two test processes may race to create it; the loser sees a duplicate, which is fine.
          if (!String(error).includes('already exists') && (error as { code?: string }).code !== '23505') throw error;
        } finally {
          await client.end();
        }
      })();
      await extensionReady;
      const schema = `t_${randomBytes(6).toString('hex')}`;
      const client = admin();
      await client.connect();
      await client.query(`create schema ${schema}`);
      await client.end();
      const dataDir = mkdtempSync(path.join(tmpdir(), 'skreg-test-'));
      const applicationName = `skreg-test-${schema}`;
      const appUrl = new URL(url);
      appUrl.searchParams.set('application_name', applicationName);
      return {
        dataDir,
        applicationName,
        database: { kind: 'postgres', url: appUrl.toString(), schema },
        async dispose() {
          const c = admin();
          await c.connect();
          await c.query(`drop schema if exists ${schema} cascade`);
          await c.end();
          rmSync(dataDir, { recursive: true, force: true });
        },
      };
    },
  };
}

/** The backends this run covers: SQLite always, PostgreSQL when TEST_DATABASE_URL names one. */
export function backends(): Backend[] {
  const url = process.env.TEST_DATABASE_URL;
  if (!url && process.env.CI === 'true') throw new Error('CI=true requires TEST_DATABASE_URL: PostgreSQL must not be skipped.');
  return url ? [sqlite, postgres(url)] : [sqlite];
}

/**
 * The backends the HTTP API suites (test/http/) run on: those of backends(), narrowed by TEST_API_BACKENDS (`sqlite` or
 * `postgres`), which scripts/test.mjs sets: its first tier runs the suites on SQLite, its second on PostgreSQL.
 */
export function apiBackends(): Backend[] {
  const only = process.env.TEST_API_BACKENDS;
  if (only === undefined || only === '') return backends();
  if (only !== 'sqlite' && only !== 'postgres') throw new Error(`TEST_API_BACKENDS must be sqlite or postgres (got ${only})`);
  const chosen = backends().filter((b) => b.name === only);
  if (chosen.length === 0) throw new Error('TEST_API_BACKENDS=postgres needs TEST_DATABASE_URL');
  return chosen;
}
