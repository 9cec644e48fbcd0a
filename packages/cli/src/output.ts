import { ProblemError, RegistryError } from '@skill-registry/client';
import { CliError } from './exit-codes.js';
import { ScanRefusedError } from './scan-policy.js';
import type { Io } from './io.js';

/**
 * Where a command's results go: with `--json`, one JSON document on stdout and nothing else there; otherwise
 * lines for a person. Notes, warnings and errors always go to stderr, so stdout stays parseable.
 */
export class Output {
  constructor(
    readonly io: Io,
    readonly json: boolean,
  ) {}

  /** The command's result. */
  result(data: unknown, human: () => string | string[]): void {
    if (this.json) {
      this.io.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
      return;
    }
    const text = human();
    const lines = Array.isArray(text) ? text : [text];
    if (lines.length > 0) this.io.stdout.write(`${lines.join('\n')}\n`);
  }

  /** A remark for the person at the terminal (stderr). */
  note(message: string): void {
    this.io.stderr.write(`${message}\n`);
  }

  warn(message: string): void {
    this.io.stderr.write(`warning: ${message}\n`);
  }

  /** Reports a failure: the detail (and field errors, and the request id) on stderr; with --json, the error on stdout too. */
  error(error: unknown): void {
    const lines: string[] = [];
    if (error instanceof RegistryError) {
      lines.push(`error: ${error.detail}`);
      for (const e of error.errors) lines.push(`  ${e.field}: ${e.message}${e.entry !== undefined ? ` (${e.entry})` : ''}`);
      if (error.request_id) lines.push(`  request id: ${error.request_id}`);
    } else if (error instanceof CliError) {
      lines.push(`error: ${error.message}`, ...error.details.map((d) => `  ${d}`));
    } else {
      lines.push(`error: ${error instanceof Error ? error.message : String(error)}`);
    }
    this.io.stderr.write(`${lines.join('\n')}\n`);
    if (this.json) this.io.stdout.write(`${JSON.stringify({ error: errorToJson(error) }, null, 2)}\n`);
  }
}

/** A failure as `--json` output shows it: the problem document, or the same fields for local failures. */
export function errorToJson(error: unknown): Record<string, unknown> {
  if (error instanceof ProblemError) return { ...error.toJSON() };
  if (error instanceof RegistryError) {
    return {
      status: error.status,
      code: error.code,
      detail: error.detail,
      request_id: error.request_id,
      ...(error.errors.length ? { errors: error.errors } : {}),
    };
  }
  if (error instanceof ScanRefusedError)
    return { code: 'scan_refused', detail: error.message, verdict: error.scan?.verdict ?? null, scan: error.scan, report: error.report };
  if (error instanceof CliError)
    return { code: 'cli_error', detail: error.message, ...(error.details.length ? { details: error.details } : {}) };
  return { code: 'error', detail: error instanceof Error ? error.message : String(error) };
}

/** Columns padded to their widest cell; the last column is not padded. */
export function table(header: string[], rows: string[][]): string[] {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((row) => (row[i] ?? '').length)));
  return all.map((row) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}

export { formatBytes } from '@skill-registry/skill-package/bytes';

/** One line of a free text, cut to `max` characters. */
export function oneLine(text: string | null | undefined, max = 60): string {
  const line = (text ?? '').replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** `2026-11-21T09:30:00.000Z` → `2026-11-21 09:30:00`. */
export function formatTime(iso: string | null): string {
  return iso === null ? '-' : iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, '');
}
