import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, parseDatabaseUrl, parseStorageUrl, type Config, type DatabaseConfig, type StorageConfig } from '../config.js';
import { openDatabase, type DatabaseHandle } from '../db/database.js';
import type { BlobStore } from '../storage/blob-store.js';
import { FsBlobStore } from '../storage/fs-blob-store.js';
import { openBlobStore } from '../storage/index.js';
import { checkVersionBlobs, copyBlobs, type BlobProgress, type BlobResult } from '../transfer/blobs.js';
import { copyRows, TransferError, type RowProgress, type TableResult } from '../transfer/rows.js';

export const MIGRATE_DATA_USAGE = `Usage: skill-registry migrate-data [--from <sqlite file | database URL> --to <database URL>]
                                   [--blobs-from <directory | file:// URL | s3:// URL> --blobs-to <s3:// URL | file:// URL>]
                                   [--delete-extra] [--batch-size <rows>] [--concurrency <blobs>]

Copies a registry's data to new storage: every row of every table (--from/--to, e.g. the embedded SQLite file to
PostgreSQL) and every package archive (--blobs-from/--blobs-to, e.g. DATA_DIR/blobs to an S3 bucket). Give either
pair or both. The target schema is migrated first; ids, timestamps and counters are kept. Running it again copies
only what changed; rows and blobs already there are not duplicated. Every table's row count and every blob's
sha256 (read back from the target) are verified. s3:// URLs use S3_ENDPOINT, S3_REGION, S3_FORCE_PATH_STYLE and the
AWS credential variables, as STORAGE_URL does.

Options:
  --from <source>          the source database: a SQLite file, sqlite:/path, or postgres://…
  --to <target>            the target database: postgres://… (?options=-c search_path=<schema> picks a schema)
  --blobs-from <source>    the source package store: a directory (DATA_DIR/blobs), file:///dir or s3://bucket/prefix
  --blobs-to <target>      the target package store: s3://bucket/prefix or file:///dir
  --delete-extra           delete target rows that are not in the source instead of refusing (for a re-run after
                           the source deleted rows an earlier run had copied)
  --batch-size <rows>      rows per batch and per target transaction (default 500)
  --concurrency <blobs>    blobs copied at once (default 4)

Progress goes to stderr, the summary to stdout. Exit code 0 when everything was copied and verified, 1 otherwise.`;

export async function runMigrateData(config: Config, args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      from: { type: 'string' },
      to: { type: 'string' },
      'blobs-from': { type: 'string' },
      'blobs-to': { type: 'string' },
      'delete-extra': { type: 'boolean' },
      'batch-size': { type: 'string' },
      concurrency: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(MIGRATE_DATA_USAGE);
    return 0;
  }
  const usage = (message: string) => {
    console.error(`${message}\n\n${MIGRATE_DATA_USAGE}`);
    return 2;
  };
  const rowsWanted = values.from !== undefined || values.to !== undefined;
  const blobsWanted = values['blobs-from'] !== undefined || values['blobs-to'] !== undefined;
  if (!rowsWanted && !blobsWanted) return usage('Nothing to do: give --from and --to, --blobs-from and --blobs-to, or both pairs.');
  if (rowsWanted && (values.from === undefined || values.to === undefined)) return usage('--from and --to go together.');
  if (blobsWanted && (values['blobs-from'] === undefined || values['blobs-to'] === undefined))
    return usage('--blobs-from and --blobs-to go together.');
  const batchSize = wholeNumber(values['batch-size'], '--batch-size', 500, 1, 5_000);
  const concurrency = wholeNumber(values.concurrency, '--concurrency', 4, 1, 64);

  const problems: string[] = [];
  const from = values.from !== undefined ? sourceDatabase(values.from, problems) : undefined;
  const to = values.to !== undefined ? parseDatabaseUrl(values.to, '--to', problems) : undefined;
  const blobsFrom = values['blobs-from'] !== undefined ? sourceStorage(values['blobs-from'], problems) : undefined;
  const blobsTo = values['blobs-to'] !== undefined ? parseStorageUrl(values['blobs-to'], '--blobs-to', problems) : undefined;
  if (from && to && sameDatabase(from, to)) problems.push('--from and --to name the same database');
  if (blobsFrom && blobsTo && sameStorage(blobsFrom, blobsTo)) problems.push('--blobs-from and --blobs-to name the same store');
  if (problems.length > 0) throw new ConfigError(problems);

  const out = new Output();
  const opened: (() => Promise<void>)[] = [];
  try {
    let tables: TableResult[] | null = null;
    let target: DatabaseHandle | null = null;
    if (from && to) {
      const source = openDatabase(from);
      opened.push(() => source.close());
      target = openDatabase(to);
      const targetHandle = target;
      opened.push(() => targetHandle.close());
      tables = await copyRows(source, target, { batchSize, deleteExtra: values['delete-extra'] === true, onProgress: (e) => out.rows(e) });
    }
    let blobs: BlobResult | null = null;
    let versions: { checked: number; problems: string[] } | null = null;
    if (blobsFrom && blobsTo) {
      const source = await openSourceStore(blobsFrom, config);
      const destination = await openBlobStore(blobsTo, config.s3);
      out.note(`copying package archives to ${describeStorage(blobsTo)}`);
      blobs = await copyBlobs(source, destination, { concurrency, onProgress: (e) => out.blobs(e) });
      if (target !== null) {
        out.note('checking that every version’s package is in the target store');
        versions = await checkVersionBlobs(target, destination);
      }
    }
    out.summary(tables, blobs, versions);
    const failures = [...(blobs?.failures ?? []), ...(versions?.problems ?? [])];
    if (failures.length > 0) {
      console.error(`migrate-data failed: ${failures.length} problem(s):\n${failures.map((f) => `  - ${f}`).join('\n')}`);
      return 1;
    }
    return 0;
  } catch (error) {
    if (error instanceof TransferError) {
      console.error(`migrate-data failed: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    for (const close of opened.reverse()) await close().catch(() => undefined);
  }
}

function wholeNumber(raw: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError([`${name} must be a whole number from ${min} to ${max} (got "${raw}")`]);
  }
  return Number(raw);
}

const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** A database URL, or a bare path to a SQLite file; the source must exist (it is never created). */
function sourceDatabase(raw: string, problems: string[]): DatabaseConfig | undefined {
  const parsed = HAS_SCHEME.test(raw) ? parseDatabaseUrl(raw, '--from', problems) : { kind: 'sqlite' as const, file: path.resolve(raw) };
  if (parsed?.kind === 'sqlite' && !existsSync(parsed.file)) {
    problems.push(`--from names the SQLite file ${parsed.file}, which does not exist`);
    return undefined;
  }
  return parsed;
}

/** A storage URL, or a bare directory; a source directory must exist. */
function sourceStorage(raw: string, problems: string[]): StorageConfig | undefined {
  const parsed = HAS_SCHEME.test(raw) ? parseStorageUrl(raw, '--blobs-from', problems) : { kind: 'file' as const, dir: path.resolve(raw) };
  if (parsed?.kind === 'file' && !(existsSync(parsed.dir) && statSync(parsed.dir).isDirectory())) {
    problems.push(`--blobs-from names the directory ${parsed.dir}, which does not exist`);
    return undefined;
  }
  return parsed;
}

/** A source directory is opened as it is: nothing is created in it. */
async function openSourceStore(storage: StorageConfig, config: Config): Promise<BlobStore> {
  return storage.kind === 'file' ? new FsBlobStore(storage.dir) : openBlobStore(storage, config.s3);
}

function sameDatabase(a: DatabaseConfig, b: DatabaseConfig): boolean {
  if (a.kind === 'sqlite' && b.kind === 'sqlite') return a.file === b.file;
  return a.kind === 'postgres' && b.kind === 'postgres' && a.url === b.url;
}

function sameStorage(a: StorageConfig, b: StorageConfig): boolean {
  if (a.kind === 'file' && b.kind === 'file') return a.dir === b.dir;
  return a.kind === 's3' && b.kind === 's3' && a.bucket === b.bucket && a.prefix === b.prefix;
}

function describeStorage(storage: StorageConfig): string {
  return storage.kind === 'file' ? storage.dir : `s3://${storage.bucket}${storage.prefix ? `/${storage.prefix}` : ''}`;
}

/** Progress lines on stderr (at most one per second while a table or the blobs are under way), the summary on stdout. */
class Output {
  private lastLine = 0;

  note(message: string): void {
    console.error(`migrate-data: ${message}`);
  }

  rows(event: RowProgress): void {
    if (event.kind === 'check') {
      this.note(event.message);
      return;
    }
    if (event.kind === 'table-done') {
      const r = event.result;
      console.error(
        `  ${r.table.padEnd(16)} ${String(r.source).padStart(9)} rows: ${r.inserted} new, ${r.updated} updated, ${r.unchanged} unchanged`,
      );
      return;
    }
    // The line for a finished table follows; in between, at most one line a second for a long one.
    if (event.done >= event.total || this.throttled()) return;
    console.error(`  ${event.table.padEnd(16)} ${String(event.done).padStart(9)} of ${event.total}…`);
  }

  blobs(event: BlobProgress): void {
    if (event.done < event.total && this.throttled()) return;
    console.error(
      `  ${'blobs'.padEnd(16)} ${String(event.done).padStart(9)} of ${event.total}: ${event.copied} copied, ${event.present} already there, ` +
        `${event.repaired} repaired, ${event.failed} failed`,
    );
  }

  summary(tables: TableResult[] | null, blobs: BlobResult | null, versions: { checked: number; problems: string[] } | null): void {
    const lines: string[] = [];
    if (tables !== null) {
      lines.push('table              source    target       new   updated unchanged   deleted');
      for (const t of tables) {
        lines.push(
          `${t.table.padEnd(16)} ${[t.source, t.target, t.inserted, t.updated, t.unchanged, t.deleted].map((n) => String(n).padStart(9)).join(' ')}`,
        );
      }
      const total = (pick: (t: TableResult) => number) => tables.reduce((sum, t) => sum + pick(t), 0);
      lines.push(
        `rows: ${total((t) => t.source)} in the source, every table's count matches in the target (${total((t) => t.inserted)} new, ${total((t) => t.updated)} updated).`,
      );
    }
    if (blobs !== null) {
      lines.push(
        `blobs: ${blobs.total} in the source: ${blobs.copied} copied, ${blobs.present} already there, ${blobs.repaired} repaired; ` +
          `${blobs.verified} read back from the target with the right sha256${blobs.vanished > 0 ? `; ${blobs.vanished} unreferenced ones removed from the source meanwhile` : ''}${blobs.failures.length > 0 ? `; ${blobs.failures.length} failed` : ''}.`,
      );
    }
    if (versions !== null) {
      lines.push(
        `versions: ${versions.checked} packages looked up in the target store${versions.problems.length > 0 ? `, ${versions.problems.length} missing or wrong` : ', all present'}.`,
      );
    }
    console.log(lines.join('\n'));
  }

  private throttled(): boolean {
    const now = Date.now();
    if (now - this.lastLine < 1000) return true;
    this.lastLine = now;
    return false;
  }
}
