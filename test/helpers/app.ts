import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { loadConfig, type Config } from '../../src/config.js';
import { createRuntime, type Runtime } from '../../src/server.js';
import type { Backend } from './backends.js';

export const ADMIN = { username: 'admin', password: 'admin-password-1', email: 'admin@example.com' };

export interface TestApp {
  app: FastifyInstance;
  runtime: Runtime;
  config: Config;
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
  /** Shuts the registry down cleanly and starts a new one on the same database and files. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real registry on a fresh database of the given backend, driven by in-process injection.
 * `env` overrides the environment the configuration is read from, exactly as an operator would set it.
 */
export async function startApp(backend: Backend, env: Record<string, string> = {}): Promise<TestApp> {
  const store = await backend.create();
  const config = loadConfig({
    DATA_DIR: store.dataDir,
    LOG_LEVEL: 'silent',
    RATE_LIMIT: 'off',
    // The free-space floor is tested on its own (test/faults/disk-full.test.ts, test/http/operations.test.ts); here a
    // small one keeps a nearly full test machine from refusing every upload.
    STORAGE_MIN_FREE_BYTES: '1048576',
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    ADMIN_EMAIL: ADMIN.email,
    ...env,
  });
  config.database = store.database;
  const runtime = await createRuntime(config);
  const testApp: TestApp = {
    app: runtime.app,
    runtime,
    config,
    request: (options) => testApp.runtime.app.inject(options),
    async restart() {
      await testApp.runtime.close();
      testApp.runtime = await createRuntime(config);
      testApp.app = testApp.runtime.app;
    },
    async close() {
      await testApp.runtime.close();
      await store.dispose();
    },
  };
  return testApp;
}

/** Every committed blob and every temporary file under the app's blob directory, sorted. */
export function blobFiles(t: TestApp): string[] {
  const walk = (dir: string): string[] => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return [];
    }
    return names.flatMap((name) => {
      const full = path.join(dir, name);
      return statSync(full).isDirectory() ? walk(full) : [full];
    });
  };
  return walk(path.join(t.config.dataDir, 'blobs')).sort();
}
