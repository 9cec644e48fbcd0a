import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.js';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.problems;
  }
  assert.fail('expected a ConfigError');
}

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    assert.equal(config.port, 3000);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.dataDir, path.resolve('./data'));
    assert.deepEqual(config.database, { kind: 'sqlite', file: path.resolve('./data/registry.db') });
    assert.deepEqual(config.storage, { kind: 'file', dir: path.resolve('./data/blobs') });
    assert.equal(config.publicUrl, 'http://127.0.0.1:3000');
    assert.equal(config.publicOrigin, 'http://127.0.0.1:3000');
    assert.equal(config.cookieSecure, false);
    assert.equal(config.registration, 'open');
    assert.equal(config.maxUploadBytes, 52_428_800);
    assert.equal(config.rateLimit, true);
    assert.equal(config.logRetentionDays, 30);
    assert.equal(config.redisUrl, null);
    assert.equal(config.admin, null);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATA_DIR: '/srv/reg',
      DATABASE_URL: 'postgres://u:p@db:5432/reg',
      STORAGE_URL: 's3://bucket/some/prefix/',
      REDIS_URL: 'redis://cache:6379',
      PUBLIC_URL: 'https://skills.example.com/',
      ADMIN_USERNAME: 'root',
      ADMIN_PASSWORD: 'long-enough',
      ADMIN_EMAIL: 'root@example.com',
      REGISTRATION: 'closed',
      MAX_UPLOAD_BYTES: '1048576',
      RATE_LIMIT: 'off',
      LOG_RETENTION_DAYS: '7',
      DATABASE_CONNECT_TIMEOUT_MS: '1500',
      DATABASE_STATEMENT_TIMEOUT_MS: '0',
    });
    assert.equal(config.port, 8080);
    assert.deepEqual(config.database, {
      kind: 'postgres',
      url: 'postgres://u:p@db:5432/reg',
      connectTimeoutMs: 1500,
      statementTimeoutMs: 0,
    });
    assert.deepEqual(config.storage, { kind: 's3', bucket: 'bucket', prefix: 'some/prefix' });
    assert.equal(config.publicUrl, 'https://skills.example.com');
    assert.equal(config.publicOrigin, 'https://skills.example.com');
    assert.equal(config.cookieSecure, true, 'an https PUBLIC_URL makes cookies Secure');
    assert.deepEqual(config.admin, { username: 'root', password: 'long-enough', email: 'root@example.com' });
    assert.equal(config.registration, 'closed');
    assert.equal(config.maxUploadBytes, 1_048_576);
    assert.equal(config.rateLimit, false);
    assert.equal(config.logRetentionDays, 7);
  });

  const invalid: [string, Record<string, string>][] = [
    ['PORT', { PORT: 'eighty' }],
    ['DATABASE_CONNECT_TIMEOUT_MS', { DATABASE_CONNECT_TIMEOUT_MS: '10' }],
    ['DATABASE_STATEMENT_TIMEOUT_MS', { DATABASE_STATEMENT_TIMEOUT_MS: 'soon' }],
    ['PORT', { PORT: '70000' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://localhost/x' }],
    ['STORAGE_URL', { STORAGE_URL: 'gs://bucket' }],
    ['REDIS_URL', { REDIS_URL: 'localhost:6379' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'ftp://example.com' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'not a url' }],
    ['REGISTRATION', { REGISTRATION: 'sometimes' }],
    ['MAX_UPLOAD_BYTES', { MAX_UPLOAD_BYTES: '-5' }],
    ['RATE_LIMIT', { RATE_LIMIT: 'maybe' }],
    ['LOG_RETENTION_DAYS', { LOG_RETENTION_DAYS: '0' }],
    ['ADMIN_PASSWORD', { ADMIN_USERNAME: 'root' }],
    ['ADMIN_USERNAME', { ADMIN_PASSWORD: 'long-enough' }],
    ['ADMIN_PASSWORD', { ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'short' }],
    ['COOKIE_SECURE', { COOKIE_SECURE: 'perhaps' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
  ];
  for (const [variable, env] of invalid) {
    it(`names ${variable} when ${JSON.stringify(env)} is invalid`, () => {
      const problems = problemsOf(env);
      assert.equal(problems.length, 1);
      assert.match(problems[0]!, new RegExp(`^${variable} `));
    });
  }

  it('reports every bad variable at once', () => {
    const problems = problemsOf({ PORT: 'x', REGISTRATION: 'y', RATE_LIMIT: 'z' });
    assert.deepEqual(problems.map((p) => p.split(' ')[0]).sort(), ['PORT', 'RATE_LIMIT', 'REGISTRATION']);
  });

  it('never echoes a database password in its message', () => {
    const [problem] = problemsOf({ DATABASE_URL: 'mysql://user:hunter2@db/x' });
    assert.ok(!problem!.includes('hunter2'));
  });
});

describe('configuration: rate limits', () => {
  it('defaults to the contract limits per minute', () => {
    assert.deepEqual(loadConfig({}).rateLimits, { login: 10, feedback: 10, reports: 10, writes: 120, reads: 1200 });
  });

  it('reads each limit from its variable', () => {
    const config = loadConfig({
      RATE_LIMIT_LOGIN: '3',
      RATE_LIMIT_FEEDBACK: ' 4 ',
      RATE_LIMIT_REPORTS: '2',
      RATE_LIMIT_WRITES: '50',
      RATE_LIMIT_READS: '100000',
    });
    assert.deepEqual(config.rateLimits, { login: 3, feedback: 4, reports: 2, writes: 50, reads: 100_000 });
    assert.equal(config.rateLimit, true);
  });

  it('keeps the limits when RATE_LIMIT=off switches limiting off', () => {
    const config = loadConfig({ RATE_LIMIT: 'OFF', RATE_LIMIT_LOGIN: '5' });
    assert.equal(config.rateLimit, false);
    assert.equal(config.rateLimits.login, 5);
  });

  const invalidLimits: [string, string][] = [
    ['RATE_LIMIT_LOGIN', '0'],
    ['RATE_LIMIT_LOGIN', 'ten'],
    ['RATE_LIMIT_FEEDBACK', '-1'],
    ['RATE_LIMIT_FEEDBACK', '2.5'],
    ['RATE_LIMIT_REPORTS', '0'],
    ['RATE_LIMIT_WRITES', '1e3'],
    ['RATE_LIMIT_READS', '1000000001'],
  ];
  for (const [variable, value] of invalidLimits) {
    it(`names ${variable} when it is "${value}"`, () => {
      const problems = problemsOf({ [variable]: value });
      assert.equal(problems.length, 1);
      assert.match(
        problems[0]!,
        new RegExp(`^${variable} must be a whole number from 1 to 1000000000 \\(got "${value.replace('.', '\\.')}"\\)$`),
      );
    });
  }

  it('reports several bad limits at once', () => {
    const problems = problemsOf({ RATE_LIMIT_LOGIN: 'x', RATE_LIMIT_READS: '0' });
    assert.deepEqual(problems.map((p) => p.split(' ')[0]).sort(), ['RATE_LIMIT_LOGIN', 'RATE_LIMIT_READS']);
  });
});

describe('configuration: hiding reported skills', () => {
  it('is off (0) by default', () => {
    assert.equal(loadConfig({}).reportsHideThreshold, 0);
  });

  it('reads REPORTS_HIDE_THRESHOLD, 0 included', () => {
    assert.equal(loadConfig({ REPORTS_HIDE_THRESHOLD: ' 3 ' }).reportsHideThreshold, 3);
    assert.equal(loadConfig({ REPORTS_HIDE_THRESHOLD: '0' }).reportsHideThreshold, 0);
  });

  for (const value of ['-1', 'two', '1.5', '1000001']) {
    it(`names REPORTS_HIDE_THRESHOLD when it is "${value}"`, () => {
      assert.deepEqual(problemsOf({ REPORTS_HIDE_THRESHOLD: value }), [
        `REPORTS_HIDE_THRESHOLD must be a whole number from 0 to 1000000 (got "${value}")`,
      ]);
    });
  }
});

describe('configuration: time limits, uploads, free space, shutdown, metrics access', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    assert.deepEqual(config.timeouts, { requestMs: 300_000, bodyIdleMs: 30_000, headersMs: 20_000 });
    assert.deepEqual(config.bodyMinRate, { bytes: 1024, windowMs: 20_000 });
    assert.equal(config.uploadsPerClient, 4);
    assert.equal(config.scanThreads, Math.max(1, availableParallelism() - 1));
    assert.equal(config.storageMinFreeBytes, 104_857_600);
    assert.equal(config.shutdownGraceMs, 30_000);
    assert.deepEqual(config.metricsAccess, { token: null, allow: [] });
  });

  it('reads each from its variable', () => {
    const config = loadConfig({
      REQUEST_TIMEOUT_MS: '60000',
      BODY_IDLE_TIMEOUT_MS: '5000',
      HEADERS_TIMEOUT_MS: '2000',
      BODY_MIN_RATE_BYTES: '4096',
      BODY_MIN_RATE_WINDOW_MS: '250',
      UPLOADS_PER_CLIENT: '1',
      SCAN_THREADS: '0',
      STORAGE_MIN_FREE_BYTES: '0',
      SHUTDOWN_GRACE_MS: '0',
      METRICS_TOKEN: 'a-metrics-token-of-some-length',
      METRICS_ALLOW: ' 10.0.0.0/8, 192.168.1.7 ,::1, fd00::/8',
    });
    assert.deepEqual(config.timeouts, { requestMs: 60_000, bodyIdleMs: 5_000, headersMs: 2_000 });
    assert.deepEqual(config.bodyMinRate, { bytes: 4096, windowMs: 250 });
    assert.equal(config.uploadsPerClient, 1);
    assert.equal(config.scanThreads, 0);
    assert.equal(config.storageMinFreeBytes, 0);
    assert.equal(config.shutdownGraceMs, 0);
    assert.equal(config.metricsAccess.token, 'a-metrics-token-of-some-length');
    assert.deepEqual(config.metricsAccess.allow, [
      { address: '10.0.0.0', prefix: 8, family: 'ipv4' },
      { address: '192.168.1.7', prefix: 32, family: 'ipv4' },
      { address: '::1', prefix: 128, family: 'ipv6' },
      { address: 'fd00::', prefix: 8, family: 'ipv6' },
    ]);
  });

  for (const entry of ['10.0.0.0/33', 'fd00::/129', 'localhost', '10.0.0', '10.0.0.0/8/1', '10.0.0.0/', '10.0.0.0/x', '*', '1.2.3.4/-1']) {
    it(`names METRICS_ALLOW when an entry is "${entry}"`, () => {
      const problems = problemsOf({ METRICS_ALLOW: `127.0.0.1,${entry}` });
      assert.equal(problems.length, 1, problems.join('\n'));
      assert.match(problems[0]!, /^METRICS_ALLOW entries must be IP addresses or CIDR ranges/);
      assert.ok(problems[0]!.includes(`"${entry}"`), problems[0]);
    });
  }

  const invalid: [string, string][] = [
    ['REQUEST_TIMEOUT_MS', '999'],
    ['BODY_IDLE_TIMEOUT_MS', 'soon'],
    ['HEADERS_TIMEOUT_MS', '0'],
    ['BODY_MIN_RATE_BYTES', '-1'],
    ['BODY_MIN_RATE_BYTES', '1 KiB'],
    ['BODY_MIN_RATE_WINDOW_MS', '99'],
    ['BODY_MIN_RATE_WINDOW_MS', '3600001'],
    ['UPLOADS_PER_CLIENT', '0'],
    ['SCAN_THREADS', '-1'],
    ['SCAN_THREADS', '65'],
    ['STORAGE_MIN_FREE_BYTES', '-1'],
    ['SHUTDOWN_GRACE_MS', '1.5'],
  ];
  for (const [variable, value] of invalid) {
    it(`names ${variable} when it is "${value}"`, () => {
      const problems = problemsOf({ [variable]: value });
      assert.equal(problems.length, 1, problems.join('\n'));
      assert.match(problems[0]!, new RegExp(`^${variable} must be a whole number`));
    });
  }

  it('turns the minimum body rate off with BODY_MIN_RATE_BYTES=0', () => {
    assert.deepEqual(loadConfig({ BODY_MIN_RATE_BYTES: '0' }).bodyMinRate, { bytes: 0, windowMs: 20_000 });
  });

  it('refuses a headers limit longer than the request limit, and a short metrics token', () => {
    assert.deepEqual(problemsOf({ REQUEST_TIMEOUT_MS: '5000', HEADERS_TIMEOUT_MS: '10000' }), [
      'HEADERS_TIMEOUT_MS must not be larger than REQUEST_TIMEOUT_MS',
    ]);
    assert.deepEqual(problemsOf({ METRICS_TOKEN: 'short' }), ['METRICS_TOKEN must be at least 16 characters']);
  });
});
