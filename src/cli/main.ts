#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { clientCommandList, findClientCommand, runClientCommand } from './registry-commands/index.js';

const USAGE = `Usage: skill-registry <command> [options]

Server commands:
  serve                         Start the registry (migrations run first)
  migrate                       Bring the database schema up to date and exit
  user create <username> --email <email> [--password <pw> | --password-stdin] [--admin]
                                Create an account (an administrator with --admin)
  migrate-data --from <db> --to <db> [--blobs-from <dir|url> --blobs-to <url>]
                                Copy every row and package to new storage, verified (--help for details)

Configuration comes from the environment (PORT, HOST, DATA_DIR, DATABASE_URL, ...); see the README.

Client commands (talk to a registry; \`skill-registry <command> --help\` for each, docs/cli.md for all):
${clientCommandList()}`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    console.log(USAGE);
    return command === undefined ? 2 : 0;
  }
  // Client commands talk to a registry over HTTP: no server configuration, no server code loaded.
  const client = findClientCommand(command);
  if (client !== undefined) return runClientCommand(client, rest);
  const config = loadConfig();
  switch (command) {
    case 'serve':
      parseArgs({ args: rest, options: {}, strict: true });
      return (await import('./serve.js')).runServe(config);
    case 'migrate':
      parseArgs({ args: rest, options: {}, strict: true });
      return (await import('./migrate.js')).runMigrate(config);
    case 'user':
      return (await import('./user.js')).runUserCommand(config, rest);
    case 'migrate-data':
      return (await import('./migrate-data.js')).runMigrateData(config, rest);
    default:
      console.error(`Unknown command "${command}".\n\n${USAGE}`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    // serve keeps the process alive itself and returns only after shutdown.
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof ConfigError) console.error(error.message);
    else if (error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) console.error(`${error.message}\n\n${USAGE}`);
    else console.error(error instanceof Error ? error.message : error);
    process.exitCode = error instanceof ConfigError ? 78 : 1;
  },
);
