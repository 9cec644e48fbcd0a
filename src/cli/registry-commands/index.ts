/**
 * The client commands: they talk to a registry over HTTP through the typed client and never need the
 * server's configuration. Each command module holds its options, help and behaviour; this one dispatches.
 */
import { login, logout, whoami } from './commands/auth.js';
import { info, search, versions } from './commands/browse.js';
import { feedback } from './commands/feedback.js';
import { install, list, uninstall, update } from './commands/install.js';
import { keys } from './commands/keys.js';
import { logs } from './commands/logs.js';
import { publish } from './commands/publish.js';
import type { Command } from './command.js';
import { exitCodeFor } from './exit-codes.js';
import { processIo, type Io } from './io.js';
import { Output } from './output.js';

export const CLIENT_COMMANDS: readonly Command[] = [
  login, logout, whoami, search, info, versions, install, list, update, uninstall, publish, feedback, logs, keys,
];

export function findClientCommand(name: string): Command | undefined {
  return CLIENT_COMMANDS.find((command) => command.name === name);
}

/** The overview's lines, one per client command. */
export function clientCommandList(): string {
  const width = Math.max(...CLIENT_COMMANDS.map((c) => c.name.length));
  return CLIENT_COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n');
}

/** Options before a `--` terminator. */
function options(args: string[]): string[] {
  const end = args.indexOf('--');
  return end === -1 ? args : args.slice(0, end);
}

/** Runs a client command and resolves with its exit code; failures are reported on stderr (and as JSON with --json). */
export async function runClientCommand(command: Command, args: string[], io: Io = processIo()): Promise<number> {
  const given = options(args);
  if (given.includes('--help') || given.includes('-h')) {
    io.stdout.write(`${command.help}\n`);
    return 0;
  }
  try {
    return await command.run(args, io);
  } catch (error) {
    const out = new Output(io, given.includes('--json'));
    out.error(error);
    const code = exitCodeFor(error);
    if (code === 2) io.stderr.write(`Run \`skill-registry ${command.name} --help\` for its options.\n`);
    return code;
  }
}
