#!/usr/bin/env node
// Runs the test files under test/ with Node's test runner. The suite covers SQLite always and PostgreSQL
// when TEST_DATABASE_URL is set; under CI it must be set, so PostgreSQL is never skipped silently.
//
// Two tiers. The first (`npm test`) is everything a change to the server, the packages or the command line is
// likely to break, with the HTTP API suites (test/http/) on SQLite, the embedded default. The second
// (`npm run test:second-tier`) is slow and touched by few changes: the HTTP API suites again on PostgreSQL, the
// browser tests of the console, the fault tests (a stopped database, a full disk, slow clients, shutdowns), several
// nodes on one database, the server's command line as a process, the real clawhub and skills clients, S3 storage, the archive differential tests against
// real extractors, the packed packages installed on their own, copying a whole registry, and the README's first
// steps. CI runs both. Naming files (`node scripts/test.mjs e2e/console`) runs the matching files of either tier, on
// every database.
//   node scripts/test.mjs [--tier=1|2|all] [PART-OF-A-PATH...]
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

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

/** The second tier: slow, and affected by few changes (see above). */
const SECOND_TIER = [
  'test/e2e/',
  'test/faults/',
  'test/cluster/',
  // Several nodes on one database and one bucket: orphan collection racing uploads, download flushes at once.
  'test/domain/blob-collection.test.ts',
  'test/db/download-flush.test.ts',
  'test/deploy/',
  'test/packaging/pack.test.ts',
  'test/migrate-data.test.ts',
  'test/readme.test.ts',
  'test/cli.test.ts',
  'test/http/s3-storage.test.ts',
  'test/packages/differential.test.ts',
  'test/packages/differential-http.test.ts',
  // The command line's longest end-to-end runs (a process per command); its other files stay in the first tier.
  'test/cli-commands/account.test.ts',
  'test/cli-commands/scan-verdicts.test.ts',
  'test/cli-commands/publish-install.test.ts',
  'test/cli-commands/agent-install.test.ts',
  'test/cli-commands/orgs.test.ts',
  // The real clients (`clawhub`, `skills`) on their own Node, a process per command.
  'test/clients/',
];
/** The HTTP API suites: the first tier runs them on SQLite, the second on PostgreSQL. */
const API_SUITES = 'test/http/';
const posix = (file) => file.split(path.sep).join('/');
const inSecondTier = (file) => SECOND_TIER.some((prefix) => posix(file).startsWith(prefix));

const args = process.argv.slice(2);
const tier = args.find((a) => a.startsWith('--tier='))?.slice('--tier='.length) ?? (args.length > 0 ? 'all' : '1');
if (!['1', '2', 'all'].includes(tier)) {
  console.error(`--tier must be 1, 2 or all (got ${tier})`);
  process.exit(2);
}
const filters = args.filter((a) => !a.startsWith('--tier='));
const matching = findTests('test')
  .filter((f) => filters.length === 0 || filters.some((needle) => f.includes(needle)))
  .sort();
const apiSuite = (f) => posix(f).startsWith(API_SUITES) && !inSecondTier(f);
const postgres = Boolean(process.env.TEST_DATABASE_URL);
// One run per tier, its files two at a time; TEST_API_BACKENDS (test/helpers/backends.ts) says which database the
// HTTP API suites use in it.
const run =
  filters.length > 0 || tier === 'all'
    ? { files: matching, apiBackends: undefined }
    : tier === '1'
      ? { files: matching.filter((f) => !inSecondTier(f)), apiBackends: 'sqlite' }
      : { files: matching.filter((f) => inSecondTier(f) || (postgres && apiSuite(f))), apiBackends: 'postgres' };
if (run.files.length === 0) {
  console.error(`No test files match ${filters.join(' ')}`);
  process.exit(1);
}
if (tier === '2' && filters.length === 0 && !postgres)
  console.log('# needs TEST_DATABASE_URL: the HTTP API suites on PostgreSQL (the second tier runs them) are not run here.');
// Tests run the built server, command line and console (the README's `npm start`, the CLI from dist/, the browser
// tests): the parts whose sources changed are built first, and nothing when the build is current.
const built = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

console.log(
  process.env.TEST_DATABASE_URL
    ? 'Backends: sqlite + postgres'
    : 'Backends: sqlite only. Set TEST_DATABASE_URL to add PostgreSQL; the suites that need it are skipped here and say so (# needs TEST_DATABASE_URL).',
);

// Each test process first loads the server's modules through tsx: about two seconds of a core, paid once per file by a
// hundred files. The first tier runs instead as groups of files, each group one process that imports its files in turn
// (node:test runs one process's top-level tests one after another, so a group's files never overlap, and each file's
// top-level hooks still run around its own tests). The second tier's files are few and long (browsers, faults,
// processes), so the start-up is a small part of them and each keeps its own process; so do named files, unless
// TEST_GROUP_SIZE says otherwise. TEST_GROUP_SIZE=1 runs every file in its own process.
const groupSize = Number(process.env.TEST_GROUP_SIZE ?? (filters.length === 0 && tier === '1' ? '8' : '1'));
if (!Number.isInteger(groupSize) || groupSize < 1) {
  console.error(`TEST_GROUP_SIZE must be a whole number of files, 1 or more (got ${process.env.TEST_GROUP_SIZE})`);
  process.exit(2);
}

// A process whose tests hang fails after this long, naming its file or group, rather than holding the run until
// CI gives up on it (Node 20's test runner times a whole file, not each test; a group gets twice a file's time); and
// once a file's tests are done its process exits, even if something it started would keep it alive.
const fileTimeoutMs = Number(process.env.TEST_TIMEOUT_MS ?? '300000');
const timeoutMs = groupSize === 1 ? fileTimeoutMs : 2 * fileTimeoutMs;
const testFiles = groupSize === 1 ? run.files : groupFiles(run.files, groupSize);

/** Writes one entry file per group (files dealt out in turn, so one directory's slow files spread over the groups). */
function groupFiles(files, size) {
  const dir = path.join('node_modules', '.cache', 'test-groups', `tier-${tier}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const count = Math.ceil(files.length / size);
  const groups = Array.from({ length: count }, () => []);
  files.forEach((file, i) => groups[i % count].push(file));
  return groups.map((members, i) => {
    const entry = path.join(dir, `group-${String(i + 1).padStart(2, '0')}.test.mjs`);
    writeFileSync(entry, members.map((f) => `import ${JSON.stringify(pathToFileURL(path.resolve(f)).href)};\n`).join(''));
    return entry;
  });
}
console.log(`${run.files.length} test files${testFiles === run.files ? '' : `, in ${testFiles.length} processes`}`);

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
    ...testFiles,
  ],
  {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'test', ...(run.apiBackends === undefined ? {} : { TEST_API_BACKENDS: run.apiBackends }) },
  },
);
process.exit(result.status ?? 1);
