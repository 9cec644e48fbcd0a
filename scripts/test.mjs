#!/usr/bin/env node
// Runs every test file under test/ with Node's test runner. The suite covers SQLite always and PostgreSQL
// when TEST_DATABASE_URL is set; under CI it must be set, so PostgreSQL is never skipped silently.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

if (process.env.CI === 'true' && !process.env.TEST_DATABASE_URL) {
  console.error('CI=true but TEST_DATABASE_URL is not set: the PostgreSQL half of the suite cannot be skipped in CI.');
  process.exit(1);
}

function findTests(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return findTests(full);
    return name.endsWith('.test.ts') ? [full] : [];
  });
}

const filters = process.argv.slice(2);
const files = findTests('test')
  .filter((f) => filters.length === 0 || filters.some((needle) => f.includes(needle)))
  .sort();
if (files.length === 0) {
  console.error(`No test files match ${filters.join(' ')}`);
  process.exit(1);
}
// Tests run the built server, command line and console (the README's `npm start`, the CLI from dist/, the browser
// tests): the parts whose sources changed are built first, and nothing when the build is current.
const built = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

console.log(
  process.env.TEST_DATABASE_URL
    ? 'Backends: sqlite + postgres'
    : 'Backends: sqlite only. Set TEST_DATABASE_URL to add PostgreSQL; the suites that need it are skipped here and say so (# needs TEST_DATABASE_URL).',
);

// A test or hook that hangs fails after this long, with its name, rather than holding the run until CI gives up on
// it; and once a file's tests are done its process exits, even if something it started would keep it alive.
const timeoutMs = process.env.TEST_TIMEOUT_MS ?? '300000';

const result = spawnSync(
  process.execPath,
  [
    // Workspace packages are loaded from their TypeScript sources, as tsx runs them.
    '--conditions=source',
    '--import',
    'tsx',
    '--test',
    `--test-concurrency=${process.env.TEST_CONCURRENCY ?? '2'}`,
    `--test-timeout=${timeoutMs}`,
    '--test-force-exit',
    '--test-reporter=spec',
    ...files,
  ],
  { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);
process.exit(result.status ?? 1);
