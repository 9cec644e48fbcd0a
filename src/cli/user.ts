import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import type { Config } from '../config.js';
import { openDatabase } from '../db/database.js';
import { AppError } from '../domain/errors.js';
import { createServices } from '../services.js';
import { openBlobStore } from '../storage/index.js';

async function readStdin(): Promise<string> {
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    lines.close();
    return line;
  }
  return '';
}

export async function runUserCommand(config: Config, args: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      'password-stdin': { type: 'boolean' },
      admin: { type: 'boolean' },
    },
  });
  const [action, username] = positionals;
  if (action !== 'create' || username === undefined || positionals.length !== 2) {
    console.error('Usage: skill-registry user create <username> --email <email> [--password <pw> | --password-stdin] [--admin]');
    return 2;
  }
  if (values.email === undefined) {
    console.error('--email is required.');
    return 2;
  }
  const password = values['password-stdin'] ? await readStdin() : (values.password ?? process.env.SKILL_REGISTRY_PASSWORD);
  if (password === undefined || password === '') {
    console.error('Give the password with --password-stdin (recommended), --password or SKILL_REGISTRY_PASSWORD.');
    return 2;
  }

  const database = openDatabase(config.database);
  try {
    await database.migrate();
    const services = createServices(database, await openBlobStore(config.storage, config.s3), config);
    const user = await services.accounts.provisionUser({ username, email: values.email, password, role: values.admin ? 'admin' : 'user' });
    console.log(`Created ${user.role} ${user.username} (${user.id}).`);
    return 0;
  } catch (error) {
    if (error instanceof AppError) {
      console.error(`${error.detail}${error.errors ? `\n${error.errors.map((e) => `  ${e.field}: ${e.message}`).join('\n')}` : ''}`);
      return 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}
