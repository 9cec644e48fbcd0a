import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import yauzl from 'yauzl';
import yazl from 'yazl';

export interface ArchiveFile {
  path: string;
  content: string | Buffer;
  /** Unix mode bits of the entry (yazl's default, 0644, when left out). */
  mode?: number;
}

export function skillMd(name = 'pdf-tools', description = 'Extract text from PDF files.', extra = ''): string {
  return `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n# ${name}\n\nInstructions.\n`;
}

/** A zip built the ordinary way (yazl), with optional directory entries. */
export function zip(files: ArchiveFile[], directories: string[] = []): Promise<Buffer> {
  const archive = new yazl.ZipFile();
  for (const dir of directories) archive.addEmptyDirectory(dir);
  for (const f of files)
    archive.addBuffer(
      Buffer.isBuffer(f.content) ? f.content : Buffer.from(f.content),
      f.path,
      f.mode === undefined ? {} : { mode: f.mode },
    );
  archive.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    archive.outputStream.on('data', (c: Buffer) => chunks.push(c));
    archive.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    archive.outputStream.on('error', reject);
  });
}

export interface TarInput {
  name: string;
  data?: string | Buffer;
  type?: 'file' | 'directory' | 'symlink' | 'link' | 'character-device' | 'block-device' | 'fifo' | 'contiguous-file';
  linkname?: string;
}

/** The uncompressed tar bytes tar-stream's pack writes. */
export async function tarBytes(entries: TarInput[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve, reject) => {
    pack.on('data', (c: unknown) => chunks.push(c as Buffer));
    pack.on('end', () => resolve());
    pack.on('error', reject);
  });
  for (const e of entries) {
    const data = typeof e.data === 'string' ? Buffer.from(e.data) : e.data;
    const header = { name: e.name, type: e.type ?? 'file', linkname: e.linkname };
    if (data !== undefined) pack.entry(header, data);
    else pack.entry(header);
  }
  pack.finalize();
  await done;
  return Buffer.concat(chunks);
}

/** A gzip-compressed tar of files (and empty directories). */
export async function tarGz(files: ArchiveFile[], directories: string[] = []): Promise<Buffer> {
  const entries: TarInput[] = [
    ...directories.map((name) => ({ name, type: 'directory' as const })),
    ...files.map((f) => ({ name: f.path, data: f.content })),
  ];
  return gzipSync(await tarBytes(entries));
}

export interface MultipartFile {
  name?: string;
  filename?: string;
  content: Buffer;
}

/** A multipart/form-data body, built by hand so tests control every part and its order. */
export function multipart(
  fields: Record<string, string>,
  file?: MultipartFile,
  fileFirst = false,
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----skreg${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  const fieldParts = Object.entries(fields).map(([name, value]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  const fileParts = file
    ? [
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${file.name ?? 'file'}"; filename="${file.filename ?? 'package.zip'}"\r\n` +
            'Content-Type: application/octet-stream\r\n\r\n',
        ),
        file.content,
        Buffer.from('\r\n'),
      ]
    : [];
  if (fileFirst) parts.push(...fileParts, ...fieldParts);
  else parts.push(...fieldParts, ...fileParts);
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Every entry of a ZIP, by name, read as UTF-8 text. */
export function unzipText(bytes: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zipfile) => {
      if (error) {
        reject(error);
        return;
      }
      const files = new Map<string, string>();
      zipfile.on('entry', (entry: yauzl.Entry) => {
        zipfile.openReadStream(entry, (err, stream) => {
          if (err) {
            reject(err);
            return;
          }
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
            zipfile.readEntry();
          });
        });
      });
      zipfile.on('end', () => resolve(files));
      zipfile.readEntry();
    });
  });
}
