import { parseArgs, type ParseArgsConfig } from 'node:util';
import { usageError } from './exit-codes.js';
import type { Io } from './io.js';

/** A client command: its name, a one-line summary for the overview, its full help, and what it does. */
export interface Command {
  name: string;
  summary: string;
  help: string;
  /** Resolves with the exit code; throws for failures (the dispatcher reports them and picks the code). */
  run(args: string[], io: Io): Promise<number>;
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** The options every client command takes. */
export const COMMON_OPTIONS = {
  registry: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Options;

export const COMMON_HELP = `Common options:
  --registry URL   the registry (else SKILL_REGISTRY_URL, else the one stored by login)
  --json           print the result as JSON on stdout
  -h, --help       show this help`;

interface ParseConfig<O extends Options> {
  args: string[];
  options: typeof COMMON_OPTIONS & O;
  allowPositionals: true;
  strict: true;
}

/** Parses a command's arguments strictly: unknown options are usage errors (exit code 2). */
export function parse<const O extends Options>(args: string[], options: O): ReturnType<typeof parseArgs<ParseConfig<O>>> {
  return parseArgs<ParseConfig<O>>({ args, options: { ...COMMON_OPTIONS, ...options }, allowPositionals: true, strict: true });
}

/** A whole number from an option, or a usage error naming the option. */
export function integerOption(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw usageError(`--${name} must be a whole number from ${min} to ${max}.`);
  }
  return n;
}
