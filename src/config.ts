import path from 'node:path';

export type DatabaseConfig =
  | { kind: 'sqlite'; file: string }
  | { kind: 'postgres'; url: string; schema?: string };

export type StorageConfig =
  | { kind: 'file'; dir: string }
  | { kind: 's3'; bucket: string; prefix: string };

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  database: DatabaseConfig;
  storage: StorageConfig;
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
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  trustProxy: boolean;
}

export interface RateLimits {
  /** `POST /v1/auth/login`, per IP address. */
  login: number;
  /** `POST /v1/feedback`, per IP address; `POST /v1/packages/validate` has its own bucket of the same size. */
  feedback: number;
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

  let database: DatabaseConfig = { kind: 'sqlite', file: path.join(dataDir, 'registry.db') };
  const databaseUrl = read('DATABASE_URL');
  if (databaseUrl !== undefined) {
    if (/^postgres(ql)?:\/\//i.test(databaseUrl)) {
      try {
        new URL(databaseUrl);
        database = { kind: 'postgres', url: databaseUrl };
      } catch {
        problems.push('DATABASE_URL is not a valid postgres:// URL');
      }
    } else if (/^sqlite:/i.test(databaseUrl)) {
      const file = databaseUrl.replace(/^sqlite:(\/\/)?/i, '');
      if (file === '') problems.push('DATABASE_URL sqlite: URL needs a file path');
      else database = { kind: 'sqlite', file: path.resolve(file) };
    } else {
      problems.push(`DATABASE_URL must start with postgres://, postgresql:// or sqlite: (got "${redactUrl(databaseUrl)}")`);
    }
  }

  let storage: StorageConfig = { kind: 'file', dir: path.join(dataDir, 'blobs') };
  const storageUrl = read('STORAGE_URL');
  if (storageUrl !== undefined) {
    if (/^file:\/\//i.test(storageUrl)) {
      const dir = storageUrl.replace(/^file:\/\//i, '');
      if (dir === '') problems.push('STORAGE_URL file:// URL needs a directory');
      else storage = { kind: 'file', dir: path.resolve(dir) };
    } else if (/^s3:\/\//i.test(storageUrl)) {
      const match = /^s3:\/\/([^/]+)\/?(.*)$/i.exec(storageUrl);
      if (!match || !match[1]) problems.push('STORAGE_URL must look like s3://bucket/prefix');
      else storage = { kind: 's3', bucket: match[1], prefix: (match[2] ?? '').replace(/\/+$/, '') };
    } else {
      problems.push(`STORAGE_URL must start with file:// or s3:// (got "${storageUrl}")`);
    }
  }

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
    redisUrl,
    publicUrl,
    publicOrigin,
    cookieSecure,
    admin,
    registration: choice('REGISTRATION', ['open', 'closed'] as const, 'open'),
    maxUploadBytes: integer('MAX_UPLOAD_BYTES', 52_428_800, 1024, Number.MAX_SAFE_INTEGER),
    rateLimit: choice('RATE_LIMIT', ['on', 'off'] as const, 'on') === 'on',
    rateLimits: {
      login: integer('RATE_LIMIT_LOGIN', 10, 1, 1_000_000),
      feedback: integer('RATE_LIMIT_FEEDBACK', 10, 1, 1_000_000),
      writes: integer('RATE_LIMIT_WRITES', 120, 1, 1_000_000),
      reads: integer('RATE_LIMIT_READS', 1200, 1, 1_000_000),
    },
    logRetentionDays: integer('LOG_RETENTION_DAYS', 30, 1, 3650),
    logLevel: choice('LOG_LEVEL', LOG_LEVELS, 'info'),
    trustProxy: boolean('TRUST_PROXY', false),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

function redactUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}
