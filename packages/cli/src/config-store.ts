/**
 * The client's configuration file: the default registry and one stored API key per registry.
 *
 * `$XDG_CONFIG_HOME/skill-registry/config.json` (else `~/.config/skill-registry/config.json`). The file holds
 * secrets, so it is written with mode 0600 inside a 0700 directory, through a temporary file renamed into
 * place (a crash never leaves half a file), and a file others can read is reported when it is loaded.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { CliError } from './exit-codes.js';

export interface StoredCredentials {
  api_key: string;
  username: string | null;
  /** The key's id, so `keys revoke` and `logout` can name it. */
  api_key_id: string | null;
  saved_at: string;
}

export interface StoredConfig {
  /** The registry commands use when neither `--registry` nor SKILL_REGISTRY_URL names one. */
  registry: string | null;
  /** Keyed by the normalised registry address. */
  credentials: Record<string, StoredCredentials>;
}

export function configPath(env: NodeJS.ProcessEnv): string {
  const base =
    env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(env.HOME || homedir(), '.config');
  return path.join(base, 'skill-registry', 'config.json');
}

function empty(): StoredConfig {
  return { registry: null, credentials: {} };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads the file; a missing file is an empty configuration, an unreadable one an error naming the file. */
export async function loadConfig(file: string, warn: (message: string) => void = () => {}): Promise<StoredConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return empty();
    throw new CliError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new CliError(`${file} is not valid JSON; fix it or delete it and log in again.`);
  }
  if (!isRecord(data)) throw new CliError(`${file} does not hold a JSON object; fix it or delete it and log in again.`);
  const mode = (await stat(file)).mode & 0o777;
  if (mode & 0o077) warn(`${file} can be read by other users (mode ${mode.toString(8)}); run: chmod 600 ${file}`);

  const config = empty();
  if (typeof data.registry === 'string') config.registry = data.registry;
  if (isRecord(data.credentials)) {
    for (const [registry, entry] of Object.entries(data.credentials)) {
      if (isRecord(entry) && typeof entry.api_key === 'string') {
        config.credentials[registry] = {
          api_key: entry.api_key,
          username: typeof entry.username === 'string' ? entry.username : null,
          api_key_id: typeof entry.api_key_id === 'string' ? entry.api_key_id : null,
          saved_at: typeof entry.saved_at === 'string' ? entry.saved_at : '',
        };
      }
    }
  }
  return config;
}

export async function saveConfig(file: string, config: StoredConfig): Promise<void> {
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // The directory may predate this file with a looser mode; it is ours, so it is tightened.
  await chmod(dir, 0o700);
  const temp = path.join(dir, `.config.json.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    await chmod(temp, 0o600);
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
