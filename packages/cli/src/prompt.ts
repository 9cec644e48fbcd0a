import { CliError, EXIT } from './exit-codes.js';
import type { Io } from './io.js';

/** Reads the first line of stdin (for secrets piped in by scripts: `echo "$KEY" | skill-registry login`). */
export async function readLine(io: Io): Promise<string> {
  let text = '';
  for await (const chunk of io.stdin) {
    text += typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
    const end = text.search(/\r?\n/);
    if (end !== -1) return text.slice(0, end);
  }
  return text;
}

/**
 * Asks for a secret without echoing it when stdin is a terminal; otherwise reads the first line of stdin.
 * Ctrl-C at the prompt ends the command with exit code 130, as a shell would.
 */
export async function readSecret(io: Io, prompt: string): Promise<string> {
  const stdin = io.stdin;
  if (!stdin.isTTY || typeof stdin.setRawMode !== 'function') return (await readLine(io)).trim();
  io.stderr.write(prompt);
  stdin.setRawMode(true);
  stdin.resume();
  try {
    return await new Promise<string>((resolve, reject) => {
      let value = '';
      const onData = (chunk: Buffer | string) => {
        for (const char of typeof chunk === 'string' ? chunk : chunk.toString('utf8')) {
          if (char === '\r' || char === '\n' || char === '\u0004') {
            stdin.off('data', onData);
            resolve(value.trim());
            return;
          }
          if (char === '\u0003') {
            stdin.off('data', onData);
            reject(new CliError('Cancelled.', EXIT.interrupted));
            return;
          }
          if (char === '\u007f' || char === '\b') value = value.slice(0, -1);
          else value += char;
        }
      };
      stdin.on('data', onData);
    });
  } finally {
    stdin.setRawMode(false);
    stdin.pause();
    io.stderr.write('\n');
  }
}

/**
 * Asks a yes-or-no question on a terminal; true only for "y" or "yes". Callers ask only when stdin is a terminal
 * (`isTerminal`): a script's piped input is never taken for consent.
 */
export async function confirm(io: Io, question: string): Promise<boolean> {
  io.stderr.write(`${question} [y/N] `);
  return /^y(es)?$/i.test((await readLine(io)).trim());
}

/** Whether a person can be asked: stdin is a terminal. */
export function isTerminal(io: Io): boolean {
  return io.stdin.isTTY === true;
}
