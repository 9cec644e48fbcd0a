/**
 * The `skill-registry` command line: the client commands, which talk to a registry over HTTP through the typed
 * client and never need the server's configuration. Each command module holds its options, help and behaviour;
 * this one dispatches. The registry server's own command line hands every command it does not run itself to
 * runCommandLine, with its own commands' usage to show in the overview.
 */
import { login, logout, whoami } from './commands/auth.js';
import { info, search, versions } from './commands/browse.js';
import { feedback } from './commands/feedback.js';
import { install, list, uninstall, update } from './commands/install.js';
import { keys } from './commands/keys.js';
import { logs } from './commands/logs.js';
import { org } from './commands/orgs.js';
import { transfer } from './commands/transfers.js';
import { publish } from './commands/publish.js';
import { verify } from './commands/verify.js';
import type { Command } from './command.js';
import { EXIT, exitCodeFor } from './exit-codes.js';
import { processIo, type Io } from './io.js';
import { Output } from './output.js';
import { VERSION } from './version.js';

export const CLIENT_COMMANDS: readonly Command[] = [
  login,
  logout,
  whoami,
  search,
  info,
  versions,
  install,
  list,
  update,
  uninstall,
  verify,
  publish,
  feedback,
  logs,
  keys,
  org,
  transfer,
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

/** The registry server's commands: this package does not include them, but names them when asked for one. */
const SERVER_COMMANDS = ['serve', 'migrate', 'user', 'migrate-data'];

/** The overview: the server's commands when given (the server's own command line), then the client commands. */
export function usage(serverUsage?: string): string {
  return `Usage: skill-registry <command> [options]
       skill-registry help <command>      a command's options
       skill-registry --version
${serverUsage !== undefined ? `\n${serverUsage}\n` : ''}
Client commands (talk to a registry; \`skill-registry <command> --help\` for each, docs/cli.md for all):
${clientCommandList()}${serverUsage !== undefined ? '' : `\n\nThe registry server's commands (${SERVER_COMMANDS.join(', ')}) come with the server, not with this package.`}`;
}

export interface CommandLineOptions {
  /** The usage of the server's own commands, shown first in the overview. */
  serverUsage?: string;
  /** What `--version` prints: the server's command line names its own version; this package's otherwise. */
  version?: string;
}

const VERSION_FLAGS = ['--version', '-V', '-v', 'version'];

/** Runs `skill-registry ARGV` and resolves with its exit code: a client command, the overview, or a usage error. */
export async function runCommandLine(argv: string[], options: CommandLineOptions = {}, io: Io = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (name !== undefined && VERSION_FLAGS.includes(name)) {
    io.stdout.write(`${options.version ?? `skill-registry ${VERSION} (client commands only)`}\n`);
    return EXIT.ok;
  }
  // `help search` is `search --help`.
  if (name === 'help' && rest[0] !== undefined) return runCommandLine([rest[0], '--help'], options, io);
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(`${usage(options.serverUsage)}\n`);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  const command = findClientCommand(name);
  if (command !== undefined) return runClientCommand(command, rest, io);
  if (options.serverUsage === undefined && SERVER_COMMANDS.includes(name)) {
    io.stderr.write(
      `"${name}" is a command of the registry server, which this package (@skill-registry/cli) does not include. ` +
        `Run it where the registry is installed: in a clone of the registry (\`npx skill-registry ${name}\`) or its container image.\n`,
    );
    return EXIT.usage;
  }
  io.stderr.write(`Unknown command "${name}".\n\n${usage(options.serverUsage)}\n`);
  return EXIT.usage;
}
