import { createClient, type RegistryClient } from '@skill-registry/client';
import { VERSION } from './version.js';
import { configPath, loadConfig, type StoredConfig } from './config-store.js';
import { CliError, EXIT, usageError } from './exit-codes.js';
import type { Io } from './io.js';

/** The registry a command talks to and the API key it sends, with where each came from. */
export interface Target {
  registry: string;
  registrySource: '--registry' | 'SKILL_REGISTRY_URL' | 'config';
  apiKey: string | null;
  apiKeySource: 'SKILL_REGISTRY_TOKEN' | 'config' | null;
  /** The username stored with the key at login, when the key came from the configuration file. */
  username: string | null;
  configFile: string;
  config: StoredConfig;
}

/** `https://Skills.Example.com/` → `https://skills.example.com`; a path prefix is kept without its trailing slash. */
export function normaliseRegistry(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw usageError(`${JSON.stringify(value)} is not a registry address; give one like https://skills.example.com.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw usageError(`The registry address must start with http:// or https://, not ${url.protocol}//.`);
  if (url.username || url.password)
    throw usageError('The registry address must not carry credentials; use `skill-registry login` or SKILL_REGISTRY_TOKEN.');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** `--registry`, else SKILL_REGISTRY_URL, else the stored default; SKILL_REGISTRY_TOKEN, else the key stored for that registry. */
export async function resolveTarget(io: Io, flag: string | undefined): Promise<Target> {
  const configFile = configPath(io.env);
  const config = await loadConfig(configFile, (message) => io.stderr.write(`warning: ${message}\n`));
  let registry: string;
  let registrySource: Target['registrySource'];
  if (flag !== undefined) {
    registry = normaliseRegistry(flag);
    registrySource = '--registry';
  } else if (io.env.SKILL_REGISTRY_URL) {
    registry = normaliseRegistry(io.env.SKILL_REGISTRY_URL);
    registrySource = 'SKILL_REGISTRY_URL';
  } else if (config.registry) {
    registry = normaliseRegistry(config.registry);
    registrySource = 'config';
  } else {
    throw usageError('No registry given: pass --registry URL, set SKILL_REGISTRY_URL, or run `skill-registry login --registry URL`.');
  }
  // A stored key belongs to the registry it was created on and is never sent anywhere else.
  const stored = config.credentials[registry];
  const envToken = io.env.SKILL_REGISTRY_TOKEN;
  return {
    registry,
    registrySource,
    apiKey: envToken ? envToken : (stored?.api_key ?? null),
    apiKeySource: envToken ? 'SKILL_REGISTRY_TOKEN' : stored ? 'config' : null,
    username: envToken ? null : (stored?.username ?? null),
    configFile,
    config,
  };
}

export function userAgent(): string {
  return `skill-registry-cli/${VERSION} node/${process.versions.node}`;
}

/** A client of the target registry; with `authenticated`, a missing API key is an error rather than an anonymous call. */
export function clientFor(target: Target, options: { authenticated?: boolean; apiKey?: string | null } = {}): RegistryClient {
  const apiKey = options.apiKey !== undefined ? options.apiKey : target.apiKey;
  if (options.authenticated && !apiKey) {
    throw new CliError(`Not logged in to ${target.registry}: run \`skill-registry login\` or set SKILL_REGISTRY_TOKEN.`, EXIT.auth);
  }
  return createClient({ baseUrl: target.registry, apiKey, userAgent: userAgent() });
}

/** A client that sends no credentials (for a registry other than the one the stored or given key belongs to). */
export function anonymousClient(registry: string): RegistryClient {
  return createClient({ baseUrl: registry, userAgent: userAgent() });
}
