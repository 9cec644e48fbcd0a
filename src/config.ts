import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';

export type DatabaseConfig =
  | { kind: 'sqlite'; file: string }
  | {
      kind: 'postgres';
      url: string;
      schema?: string;
      /** `DATABASE_CONNECT_TIMEOUT_MS`: how long a request waits for a connection before it is answered 503. */
      connectTimeoutMs?: number;
      /** `DATABASE_STATEMENT_TIMEOUT_MS`: statements running longer are cancelled; 0 turns the limit off. */
      statementTimeoutMs?: number;
    };

export type StorageConfig = { kind: 'file'; dir: string } | { kind: 's3'; bucket: string; prefix: string };

/** How to reach S3-compatible storage (used when a storage URL is s3://). */
export interface S3Settings {
  /** `S3_ENDPOINT`: the URL of an S3-compatible server; null means AWS S3 itself. */
  endpoint: string | null;
  /** `S3_REGION`, else `AWS_REGION`, else us-east-1 (most S3-compatible servers ignore it). */
  region: string;
  /** `S3_FORCE_PATH_STYLE`: `http://host/bucket/key` instead of `http://bucket.host/key`; on by default with an endpoint. */
  forcePathStyle: boolean;
  /** `AWS_ACCESS_KEY_ID` + `AWS_SECRET_ACCESS_KEY` (+ `AWS_SESSION_TOKEN`); null leaves it to the SDK's credential chain. */
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } | null;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  database: DatabaseConfig;
  storage: StorageConfig;
  s3: S3Settings;
  redisUrl: string | null;
  publicUrl: string;
  /** Origin derived from publicUrl: what a same-origin browser request carries in `Origin`. */
  publicOrigin: string;
  cookieSecure: boolean;
  admin: { username: string; password: string; email: string } | null;
  registration: 'open' | 'closed';
  maxUploadBytes: number;
  rateLimit: boolean;
  /** Requests allowed per minute in each rate-limit bucket (see src/http/plugins/rate-limit.ts). */
  rateLimits: RateLimits;
  logRetentionDays: number;
  /**
   * `REPORTS_HIDE_THRESHOLD`: distinct users with open reports of a skill that hide it pending an administrator's
   * review; 0 (the default) never hides.
   */
  reportsHideThreshold: number;
  /** `ORG_INVITATION_DAYS`: how long an invitation to an organisation stays open before it expires. */
  orgInvitationDays: number;
  /** `SEARCH_SYNC_INTERVAL_MS`: how often the search index reads the change log for what other nodes changed. */
  searchSyncIntervalMs: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  trustProxy: boolean;
  /** Time limits on a client's request; see docs/deployment.md ("Faults and what the registry promises"). */
  timeouts: Timeouts;
  /**
   * The least a request body must bring: `BODY_MIN_RATE_BYTES` in every `BODY_MIN_RATE_WINDOW_MS`, or the request is
   * cut with 408 (src/http/body-rate.ts); 0 bytes turns the minimum off.
   */
  bodyMinRate: { bytes: number; windowMs: number };
  /** `UPLOADS_PER_CLIENT`: package uploads (and validations) one client may have in flight at once. */
  uploadsPerClient: number;
  /**
   * `SCAN_THREADS`: worker threads that scan packages while they are read (0: scan on the thread that answers
   * requests). By default one fewer than the cores, and at least one.
   */
  scanThreads: number;
  /** How often a node looks for queued jobs that are due, such as the versions of a rescan (`QUEUE_POLL_MS`). */
  queuePollMs: number;
  /** `STORAGE_MIN_FREE_BYTES`: below this much free space the local store refuses new writes and `/readyz` says so. */
  storageMinFreeBytes: number;
  /** `SHUTDOWN_GRACE_MS`: how long a stopping server lets requests in flight (downloads included) finish. */
  shutdownGraceMs: number;
  /**
   * Who may read `/metrics`: `METRICS_TOKEN` (a bearer token) and `METRICS_ALLOW` (addresses and CIDR ranges);
   * either admits a scraper, and everyone may read it when both are empty.
   */
  metricsAccess: { token: string | null; allow: AddressRange[] };
  /** Webhooks' deliveries (docs/api-decisions.md, "Webhooks"). */
  webhooks: WebhookSettings;
}

export interface WebhookSettings {
  /**
   * `WEBHOOK_ALLOW_PRIVATE`: lets webhook URLs reach loopback, private, link-local and other non-public addresses (a
   * registry whose receivers live on its own network). Off by default: such a URL is refused.
   */
  allowPrivate: boolean;
  /**
   * `WEBHOOK_ALLOWED_HOSTS`: host names, addresses and CIDR ranges a webhook may reach whatever their address
   * (`hooks.internal, 10.1.2.0/24, 127.0.0.1`).
   */
  allowedHosts: { names: string[]; ranges: AddressRange[] };
  /** `WEBHOOK_TIMEOUT_MS`: how long a delivery waits to connect, and then for the whole answer. */
  timeoutMs: number;
  /** `WEBHOOK_DISABLE_AFTER`: deliveries in a row that failed for good (every attempt) after which a subscription is disabled. */
  disableAfter: number;
}

export interface Timeouts {
  /** `REQUEST_TIMEOUT_MS`: the whole request, headers and body, must arrive within this. */
  requestMs: number;
  /** `BODY_IDLE_TIMEOUT_MS`: a connection that sends nothing for this long while a request is being read is cut. */
  bodyIdleMs: number;
  /** `HEADERS_TIMEOUT_MS`: a request's headers must arrive within this. */
  headersMs: number;
}

/** One METRICS_ALLOW entry: an address (a range of one) or a CIDR range. */
export interface AddressRange {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

export interface RateLimits {
  /** `POST /v1/auth/login`, per IP address. */
  login: number;
  /** `POST /v1/feedback`, per IP address; `POST /v1/packages/validate` has its own bucket of the same size. */
  feedback: number;
  /** `POST /v1/skills/:skillId/reports`, per user. */
  reports: number;
  /** Other writes (POST, PUT, PATCH, DELETE), per user; per IP address for anonymous callers. */
  writes: number;
  /** Everything else, per IP address. */
  reads: number;
}

/** Raised when the environment holds a value the registry cannot run with; the message names the variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * Reads the whole configuration from the environment at once and reports every bad variable together,
 * so an operator fixes them in one pass instead of one restart per mistake.
 *
 * Hand-written rather than env-schema: most variables are URLs, address lists and pairs checked against each other,
 * which a schema cannot say, and each message names the variable, its bounds and the value given.
 */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const read = (name: string): string | undefined => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };

  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return Number(raw);
  };

  const choice = <T extends string>(name: string, options: readonly T[], fallback: T): T => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    const lowered = raw.toLowerCase();
    if (!(options as readonly string[]).includes(lowered)) {
      problems.push(`${name} must be one of ${options.join(', ')} (got "${raw}")`);
      return fallback;
    }
    return lowered as T;
  };

  const boolean = (name: string, fallback: boolean): boolean => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    const lowered = raw.toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(lowered)) return true;
    if (['0', 'false', 'no', 'off'].includes(lowered)) return false;
    problems.push(`${name} must be true or false (got "${raw}")`);
    return fallback;
  };

  const port = integer('PORT', 3000, 0, 65535);
  const host = read('HOST') ?? '127.0.0.1';
  const dataDir = path.resolve(read('DATA_DIR') ?? './data');

  const databaseUrl = read('DATABASE_URL');
  const database: DatabaseConfig = (databaseUrl !== undefined ? parseDatabaseUrl(databaseUrl, 'DATABASE_URL', problems) : undefined) ?? {
    kind: 'sqlite',
    file: path.join(dataDir, 'registry.db'),
  };

  const connectTimeoutMs = integer('DATABASE_CONNECT_TIMEOUT_MS', 2_000, 100, 600_000);
  const statementTimeoutMs = integer('DATABASE_STATEMENT_TIMEOUT_MS', 10_000, 0, 86_400_000);
  if (database.kind === 'postgres') Object.assign(database, { connectTimeoutMs, statementTimeoutMs });

  const storageUrl = read('STORAGE_URL');
  const storage: StorageConfig = (storageUrl !== undefined ? parseStorageUrl(storageUrl, 'STORAGE_URL', problems) : undefined) ?? {
    kind: 'file',
    dir: path.join(dataDir, 'blobs'),
  };
  const s3 = readS3Settings(env, problems);

  const redisUrl = read('REDIS_URL') ?? null;
  if (redisUrl !== null && !/^rediss?:\/\//i.test(redisUrl)) {
    problems.push('REDIS_URL must start with redis:// or rediss://');
  }

  const displayHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  let publicUrl = read('PUBLIC_URL') ?? `http://${displayHost.includes(':') ? `[${displayHost}]` : displayHost}:${port}`;
  let publicOrigin = '';
  try {
    const parsed = new URL(publicUrl);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('scheme');
    publicOrigin = parsed.origin;
    publicUrl = publicUrl.replace(/\/+$/, '');
  } catch {
    problems.push(`PUBLIC_URL must be an absolute http or https URL (got "${publicUrl}")`);
  }
  const cookieSecure = boolean('COOKIE_SECURE', publicOrigin.startsWith('https:'));

  const adminUsername = read('ADMIN_USERNAME');
  const adminPassword = env.ADMIN_PASSWORD;
  let admin: Config['admin'] = null;
  if (adminUsername !== undefined || (adminPassword !== undefined && adminPassword !== '')) {
    if (adminUsername === undefined) problems.push('ADMIN_USERNAME is required when ADMIN_PASSWORD is set');
    else if (adminPassword === undefined || adminPassword === '') problems.push('ADMIN_PASSWORD is required when ADMIN_USERNAME is set');
    else if (adminPassword.length < 8) problems.push('ADMIN_PASSWORD must be at least 8 characters');
    else admin = { username: adminUsername, password: adminPassword, email: read('ADMIN_EMAIL') ?? `${adminUsername}@localhost` };
  }

  const config: Config = {
    port,
    host,
    dataDir,
    database,
    storage,
    s3,
    redisUrl,
    publicUrl,
    publicOrigin,
    cookieSecure,
    admin,
    registration: choice('REGISTRATION', ['open', 'closed'] as const, 'open'),
    maxUploadBytes: integer('MAX_UPLOAD_BYTES', 52_428_800, 1024, Number.MAX_SAFE_INTEGER),
    rateLimit: choice('RATE_LIMIT', ['on', 'off'] as const, 'on') === 'on',
    rateLimits: {
      login: integer('RATE_LIMIT_LOGIN', 10, 1, 1_000_000_000),
      feedback: integer('RATE_LIMIT_FEEDBACK', 10, 1, 1_000_000_000),
      reports: integer('RATE_LIMIT_REPORTS', 10, 1, 1_000_000_000),
      writes: integer('RATE_LIMIT_WRITES', 120, 1, 1_000_000_000),
      reads: integer('RATE_LIMIT_READS', 1200, 1, 1_000_000_000),
    },
    logRetentionDays: integer('LOG_RETENTION_DAYS', 30, 1, 3650),
    reportsHideThreshold: integer('REPORTS_HIDE_THRESHOLD', 0, 0, 1_000_000),
    orgInvitationDays: integer('ORG_INVITATION_DAYS', 7, 1, 365),
    searchSyncIntervalMs: integer('SEARCH_SYNC_INTERVAL_MS', 500, 100, 86_400_000),
    logLevel: choice('LOG_LEVEL', LOG_LEVELS, 'info'),
    trustProxy: boolean('TRUST_PROXY', false),
    timeouts: {
      requestMs: integer('REQUEST_TIMEOUT_MS', 300_000, 1_000, 86_400_000),
      bodyIdleMs: integer('BODY_IDLE_TIMEOUT_MS', 30_000, 1_000, 3_600_000),
      headersMs: integer('HEADERS_TIMEOUT_MS', 20_000, 1_000, 600_000),
    },
    // 1 KiB per 20 s is 0.4 kbit/s: a 64 kbit/s mobile link brings 160 KB a window and 1 Mbit/s 2.5 MB, while ten bytes
    // every 3 s bring about 70 and are cut when their first window ends.
    bodyMinRate: {
      bytes: integer('BODY_MIN_RATE_BYTES', 1024, 0, 1_073_741_824),
      windowMs: integer('BODY_MIN_RATE_WINDOW_MS', 20_000, 100, 3_600_000),
    },
    uploadsPerClient: integer('UPLOADS_PER_CLIENT', 4, 1, 10_000),
    scanThreads: integer('SCAN_THREADS', Math.max(1, availableParallelism() - 1), 0, 64),
    queuePollMs: integer('QUEUE_POLL_MS', 1_000, 100, 86_400_000),
    storageMinFreeBytes: integer('STORAGE_MIN_FREE_BYTES', 104_857_600, 0, Number.MAX_SAFE_INTEGER),
    shutdownGraceMs: integer('SHUTDOWN_GRACE_MS', 30_000, 0, 86_400_000),
    metricsAccess: {
      token: read('METRICS_TOKEN') ?? null,
      allow: addressRanges(read('METRICS_ALLOW') ?? '', 'METRICS_ALLOW', problems),
    },
    webhooks: {
      allowPrivate: boolean('WEBHOOK_ALLOW_PRIVATE', false),
      allowedHosts: allowedHosts(read('WEBHOOK_ALLOWED_HOSTS') ?? '', problems),
      timeoutMs: integer('WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000),
      disableAfter: integer('WEBHOOK_DISABLE_AFTER', 5, 1, 1_000),
    },
  };
  if (config.timeouts.headersMs > config.timeouts.requestMs) {
    problems.push('HEADERS_TIMEOUT_MS must not be larger than REQUEST_TIMEOUT_MS');
  }
  const metricsToken = config.metricsAccess.token;
  if (metricsToken !== null && metricsToken.length < 16) problems.push('METRICS_TOKEN must be at least 16 characters');
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** WEBHOOK_ALLOWED_HOSTS: a comma list of host names (matched as written in a URL) and of addresses and CIDR ranges. */
function allowedHosts(raw: string, problems: string[]): WebhookSettings['allowedHosts'] {
  const entries = raw
    .split(',')
    .map((e) =>
      e
        .trim()
        .toLowerCase()
        .replace(/^\[(.*)\]$/, '$1'),
    )
    .filter((e) => e !== '');
  const addresses = entries.filter((e) => isIP(e.split('/')[0] ?? '') !== 0);
  const names = entries.filter((e) => !addresses.includes(e));
  for (const name of names) {
    if (!/^[a-z0-9.-]+$/.test(name))
      problems.push(`WEBHOOK_ALLOWED_HOSTS entries must be host names, addresses or CIDR ranges (got "${name}")`);
  }
  return { names, ranges: addressRanges(addresses.join(','), 'WEBHOOK_ALLOWED_HOSTS', problems) };
}

/** A comma list of IP addresses and CIDR ranges (`10.0.0.0/8, ::1, 192.168.1.7`); problems name `name`. */
export function addressRanges(raw: string, name: string, problems: string[]): AddressRange[] {
  const ranges: AddressRange[] = [];
  for (const entry of raw
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '')) {
    const [address = '', prefixText, ...rest] = entry.split('/');
    const version = isIP(address);
    const family = version === 4 ? 'ipv4' : 'ipv6';
    const bits = version === 4 ? 32 : 128;
    const prefix = prefixText === undefined ? bits : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : Number.NaN;
    if (version === 0 || rest.length > 0 || !(prefix >= 0 && prefix <= bits)) {
      problems.push(`${name} entries must be IP addresses or CIDR ranges such as 10.0.0.0/8 or fd00::/8 (got "${entry}")`);
      continue;
    }
    ranges.push({ address, prefix, family });
  }
  return ranges;
}

/**
 * Parses a database URL (`postgres://…`, `postgresql://…`, `sqlite:/path/file.db`); problems are pushed onto
 * `problems` under `name` (the variable or option the value came from). Undefined when the value is unusable.
 */
export function parseDatabaseUrl(raw: string, name: string, problems: string[]): DatabaseConfig | undefined {
  if (/^postgres(ql)?:\/\//i.test(raw)) {
    try {
      new URL(raw);
      return { kind: 'postgres', url: raw };
    } catch {
      problems.push(`${name} is not a valid postgres:// URL`);
      return undefined;
    }
  }
  if (/^sqlite:/i.test(raw)) {
    const file = raw.replace(/^sqlite:(\/\/)?/i, '');
    if (file !== '') return { kind: 'sqlite', file: path.resolve(file) };
    problems.push(`${name} sqlite: URL needs a file path`);
    return undefined;
  }
  problems.push(`${name} must start with postgres://, postgresql:// or sqlite: (got "${redactUrl(raw)}")`);
  return undefined;
}

/** S3 bucket names: 3 to 63 letters, digits, dots, hyphens (and the underscores some S3-compatible servers allow). */
const BUCKET_NAME = /^[a-z0-9][a-z0-9._-]{1,61}[a-z0-9]$/i;

/** Parses a blob storage URL (`file:///dir`, `s3://bucket/prefix`), as parseDatabaseUrl does. */
export function parseStorageUrl(raw: string, name: string, problems: string[]): StorageConfig | undefined {
  if (/^file:\/\//i.test(raw)) {
    const dir = raw.replace(/^file:\/\//i, '');
    if (dir !== '') return { kind: 'file', dir: path.resolve(dir) };
    problems.push(`${name} file:// URL needs a directory`);
    return undefined;
  }
  if (/^s3:\/\//i.test(raw)) {
    const match = /^s3:\/\/([^/?#]+)\/?([^?#]*)$/i.exec(raw);
    if (!match?.[1]) {
      problems.push(`${name} must look like s3://bucket/prefix (got "${raw}")`);
      return undefined;
    }
    if (!BUCKET_NAME.test(match[1])) {
      problems.push(`${name} names the bucket "${match[1]}", which is not a valid bucket name (3 to 63 letters, digits, dots or hyphens)`);
      return undefined;
    }
    return { kind: 's3', bucket: match[1], prefix: (match[2] ?? '').replace(/^\/+|\/+$/g, '') };
  }
  problems.push(`${name} must start with file:// or s3:// (got "${raw}")`);
  return undefined;
}

/**
 * The S3 connection settings. They are read whatever STORAGE_URL says, because `migrate-data --blobs-to s3://…`
 * uses them without STORAGE_URL.
 */
function readS3Settings(env: Env, problems: string[]): S3Settings {
  const read = (name: string): string | undefined => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };

  let endpoint: string | null = null;
  const rawEndpoint = read('S3_ENDPOINT');
  if (rawEndpoint !== undefined) {
    try {
      const parsed = new URL(rawEndpoint);
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('scheme');
      if (parsed.username !== '' || parsed.password !== '') {
        problems.push('S3_ENDPOINT must not carry credentials; set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY instead');
      } else if (parsed.search !== '' || parsed.hash !== '') {
        problems.push(`S3_ENDPOINT must be a plain http or https URL without a query (got "${rawEndpoint}")`);
      } else {
        endpoint = rawEndpoint.replace(/\/+$/, '');
      }
    } catch {
      problems.push(`S3_ENDPOINT must be an absolute http or https URL, e.g. http://minio:9000 (got "${rawEndpoint}")`);
    }
  }

  let region = 'us-east-1';
  const regionName = read('S3_REGION') !== undefined ? 'S3_REGION' : 'AWS_REGION';
  const rawRegion = read(regionName);
  if (rawRegion !== undefined) {
    if (/^[a-z0-9]+(-[a-z0-9]+)*$/i.test(rawRegion) && rawRegion.length <= 64) region = rawRegion;
    else problems.push(`${regionName} must be a region name such as us-east-1 (got "${rawRegion}")`);
  }

  let forcePathStyle = endpoint !== null;
  const rawPathStyle = read('S3_FORCE_PATH_STYLE');
  if (rawPathStyle !== undefined) {
    const lowered = rawPathStyle.toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(lowered)) forcePathStyle = true;
    else if (['0', 'false', 'no', 'off'].includes(lowered)) forcePathStyle = false;
    else problems.push(`S3_FORCE_PATH_STYLE must be true or false (got "${rawPathStyle}")`);
  }

  let credentials: S3Settings['credentials'] = null;
  const accessKeyId = read('AWS_ACCESS_KEY_ID');
  const secretAccessKey = read('AWS_SECRET_ACCESS_KEY');
  const sessionToken = read('AWS_SESSION_TOKEN');
  if (accessKeyId !== undefined && secretAccessKey !== undefined) {
    credentials = { accessKeyId, secretAccessKey, sessionToken };
  } else if (accessKeyId !== undefined) {
    problems.push('AWS_SECRET_ACCESS_KEY is required when AWS_ACCESS_KEY_ID is set');
  } else if (secretAccessKey !== undefined) {
    problems.push('AWS_ACCESS_KEY_ID is required when AWS_SECRET_ACCESS_KEY is set');
  }

  return { endpoint, region, forcePathStyle, credentials };
}

function redactUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}
