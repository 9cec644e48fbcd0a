import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import yazl from 'yazl';
import { PackageError } from '@skill-registry/skill-package/types';

export { bufferSource } from '@skill-registry/skill-package/source';

import { tarBytes, type TarInput } from '../helpers/archives.js';

export { skillMd, tarBytes, type TarInput } from '../helpers/archives.js';

export interface ZipInput {
  name: string;
  data?: string | Buffer;
  /** Directory entry (name must end in /). */
  directory?: boolean;
  compress?: boolean;
}

/** A zip built the ordinary way, with yazl. */
export function yazlZip(entries: ZipInput[], options: { forceZip64Format?: boolean } = {}): Promise<Buffer> {
  const archive = new yazl.ZipFile();
  for (const e of entries) {
    if (e.directory) archive.addEmptyDirectory(e.name);
    else {
      const data = typeof e.data === 'string' ? Buffer.from(e.data) : (e.data ?? Buffer.alloc(0));
      archive.addBuffer(data, e.name, { compress: e.compress ?? true, forceZip64Format: options.forceZip64Format ?? false });
    }
  }
  archive.end({ forceZip64Format: options.forceZip64Format ?? false, comment: '' });
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    archive.outputStream.on('data', (c: Buffer) => chunks.push(c));
    archive.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    archive.outputStream.on('error', reject);
  });
}

/** A gzip-compressed tar of raw entries, links and devices included. */
export async function tarGz(entries: TarInput[]): Promise<Buffer> {
  return gzipSync(await tarBytes(entries));
}

/** One raw ustar header block, for entries tar-stream's pack will not write. */
export function tarHeader(fields: { name: string | Buffer; typeflag?: string; size?: number; magic?: boolean }): Buffer {
  const block = Buffer.alloc(512);
  const name = typeof fields.name === 'string' ? Buffer.from(fields.name) : fields.name;
  name.copy(block, 0, 0, Math.min(100, name.length));
  block.write('0000644\0', 100, 'latin1');
  block.write('0000000\0', 108, 'latin1');
  block.write('0000000\0', 116, 'latin1');
  block.write((fields.size ?? 0).toString(8).padStart(11, '0') + '\0', 124, 'latin1');
  block.write('00000000000\0', 136, 'latin1');
  block.write(fields.typeflag ?? '0', 156, 'latin1');
  if (fields.magic !== false) block.write('ustar\u000000', 257, 'latin1');
  return withChecksum(block);
}

export function withChecksum(block: Buffer): Buffer {
  block.fill(0x20, 148, 156);
  let sum = 0;
  for (const b of block) sum += b;
  block.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 'latin1');
  return block;
}

/** A raw tar: header blocks, data padded to 512, and the two zero blocks at the end. */
export function rawTar(entries: { header: Buffer; data?: Buffer }[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    parts.push(e.header);
    if (e.data && e.data.length > 0) {
      parts.push(e.data);
      const pad = (512 - (e.data.length % 512)) % 512;
      parts.push(Buffer.alloc(pad));
    }
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

export async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** Awaits a refusal and checks its status, code and (when given) that the problems name `entry`. */
export async function assertRefused(
  promise: Promise<unknown>,
  status: 415 | 422,
  code: 'unsupported_media_type' | 'invalid_archive' | 'invalid_skill_md',
  entry?: string,
  messagePattern?: RegExp,
): Promise<PackageError> {
  let caught: unknown = null;
  try {
    await promise;
  } catch (err) {
    caught = err;
  }
  assert.ok(
    caught instanceof PackageError,
    `expected a PackageError, got ${caught instanceof Error ? `${caught.name}: ${caught.message}` : String(caught)}`,
  );
  assert.equal(caught.status, status, caught.detail);
  assert.equal(caught.code, code, caught.detail);
  assert.ok(caught.problems.length > 0, 'problems listed');
  if (entry !== undefined) {
    assert.ok(
      caught.problems.some((p) => p.entry === entry),
      `expected a problem naming ${JSON.stringify(entry)}, got ${JSON.stringify(caught.problems)}`,
    );
    assert.ok(caught.detail.includes(JSON.stringify(entry)) || caught.detail.includes(entry), `detail names the entry: ${caught.detail}`);
  }
  if (messagePattern) assert.match(caught.detail, messagePattern);
  return caught;
}
