import { loadConfig, type DatabaseConfig } from '../../src/config.js';
import type { PostgresTuning } from '../../src/db/database.js';
import { createRuntime } from '../../src/server.js';
import { ADMIN, type TestApp } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { ifSet } from '../helpers/hooks.js';
import { databaseProxy, type DatabaseProxy } from './postgres-sessions.js';

/** A registry on its own PostgreSQL schema, reached through a proxy the test can make refuse connections. */
export interface ProxiedRegistry {
  t: TestApp;
  proxy: DatabaseProxy;
  /** The schema the registry's tables are in (for locks taken from outside). */
  schema: string;
  close(): Promise<void>;
}

/**
 * Starts one with `env` over the fault tests' defaults (no rate limits, a 1 MiB free-space floor, the test admin), its
 * pool tuned by `tuning` (a short statement limit, say).
 */
export async function proxiedRegistry(env: Record<string, string> = {}, tuning: PostgresTuning = {}): Promise<ProxiedRegistry> {
  const postgres = backends().find((b) => b.name === 'postgres')!;
  const store = await postgres.create();
  let proxy: DatabaseProxy | undefined;
  let t: TestApp | undefined;
  const close = async () => {
    await ifSet(proxy)?.restore();
    await ifSet(t)?.close();
    await ifSet(proxy)?.close();
    await store.dispose();
  };
  try {
    const direct = store.database as Extract<DatabaseConfig, { kind: 'postgres' }>;
    proxy = await databaseProxy(direct.url);
    const config = loadConfig({
      DATA_DIR: store.dataDir,
      LOG_LEVEL: process.env.DEBUG_LOG ?? 'silent',
      RATE_LIMIT: 'off',
      STORAGE_MIN_FREE_BYTES: '1048576',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      ADMIN_EMAIL: ADMIN.email,
      ...env,
    });
    const database: DatabaseConfig & PostgresTuning = { ...direct, ...tuning, url: proxy.url(direct.url) };
    config.database = database;
    const runtime = await createRuntime(config);
    t = {
      app: runtime.app,
      runtime,
      config,
      request: (options) => runtime.app.inject(options),
      restart: () => Promise.reject(new Error('not used')),
      close: () => runtime.close(),
    };
    return { t, proxy, schema: direct.schema ?? '', close };
  } catch (error) {
    await close();
    throw error;
  }
}
