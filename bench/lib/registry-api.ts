// Talking to a running registry from a benchmark: logging in, creating and publishing skills, building packages
// and streaming uploads, reading a response exactly as a load generator receives it.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import http from 'node:http';
import { Readable } from 'node:stream';
import yazl from 'yazl';

export const ADMIN = { login: 'admin', password: 'bench-admin-password' };

/** A zip of the given files, stored (random bytes do not compress; storing keeps the size the scenario names). */
export function zipOf(files: { path: string; content: Buffer }[], compress = false): Promise<Buffer> {
  const archive = new yazl.ZipFile();
  for (const f of files) archive.addBuffer(f.content, f.path, { compress });
  archive.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    archive.outputStream.on('data', (c: Buffer) => chunks.push(c));
    archive.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    archive.outputStream.on('error', reject);
  });
}

export const SKILL_MD = Buffer.from('---\nname: bench-skill\ndescription: A package for benchmarks.\n---\n# Bench\n');

/** A package of `bytes` (roughly): SKILL.md and random data, stored. */
export function packageOf(bytes: number): Promise<Buffer> {
  return zipOf([
    { path: 'SKILL.md', content: SKILL_MD },
    { path: 'data.bin', content: randomBytes(Math.max(0, bytes - 200)) },
  ]);
}

export async function adminCookie(url: string): Promise<string> {
  const res = await fetch(`${url}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status}`);
  return res.headers.get('set-cookie')!.split(';')[0]!;
}

export async function json<T = Record<string, unknown>>(res: Response): Promise<T> {
  const body = await res.text();
  if (!res.ok) throw new Error(`${res.status}: ${body}`);
  return (body === '' ? {} : JSON.parse(body)) as T;
}

export async function createSkill(url: string, cookie: string, slug: string, extra: Record<string, unknown> = {}): Promise<void> {
  await json(
    await fetch(`${url}/v1/skills`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ name: slug, slug, ...extra }),
    }),
  );
}

/** Uploads a version holding only SKILL.md: publishing needs a version to install. */
export async function uploadSkillMdVersion(url: string, cookie: string, slug: string, version = '1.0.0'): Promise<void> {
  const status = await streamUpload(
    `${url}/v1/skills/${slug}/versions`,
    cookie,
    version,
    await zipOf([{ path: 'SKILL.md', content: SKILL_MD }]),
  );
  if (status !== 201) throw new Error(`upload of ${slug}@${version} failed: ${status}`);
}

export async function publishSkill(url: string, cookie: string, slug: string): Promise<void> {
  await json(
    await fetch(`${url}/v1/admin/skills/${slug}/status`, {
      method: 'PATCH',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'published' }),
    }),
  );
}

/** An API key of the session's user, with no scopes (reads only). */
export async function createApiKey(url: string, cookie: string, name = 'bench'): Promise<string> {
  const { key } = await json<{ key: string }>(
    await fetch(`${url}/v1/me/api-keys`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ name, scopes: [] }),
    }),
  );
  return key;
}

/**
 * `source`'s chunks, each held back until the link rate `bitsPerSecond` would have carried the bytes before it, from
 * the first chunk on: a client on a real link rather than on the registry's own loopback.
 */
async function* paced(source: AsyncIterable<Buffer>, bitsPerSecond: number): AsyncGenerator<Buffer> {
  const started = performance.now();
  let sent = 0;
  for await (const chunk of source) {
    const due = started + ((sent * 8) / bitsPerSecond) * 1000;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    yield chunk;
    sent += chunk.length;
  }
}

/**
 * Uploads `file` as a version in a multipart body, streamed from the path in 64 KiB pieces (or sent from the bytes given),
 * so the client holds at most one package in memory; resolves to the response's status. `bitsPerSecond` paces a
 * streamed file to a link's rate.
 */
export function streamUpload(
  url: string,
  cookie: string,
  version: string,
  file: string | Buffer,
  options: { bitsPerSecond?: number } = {},
): Promise<number> {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="version"\r\n\r\n${version}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="package.zip"\r\nContent-Type: application/zip\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const size = typeof file === 'string' ? statSync(file).size : file.length;
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: {
          cookie,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + size + tail.length,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.write(head);
    if (typeof file !== 'string') {
      req.write(file);
      req.end(tail);
      return;
    }
    const body =
      options.bitsPerSecond === undefined
        ? createReadStream(file)
        : Readable.from(paced(createReadStream(file, { highWaterMark: 64 * 1024 }), options.bitsPerSecond));
    body.pipe(req, { end: false });
    body.on('end', () => req.end(tail));
  });
}

/** One upload by curl: its status, its own time from connecting to the answer's end, and the CPU it spent. */
export interface CurlUpload {
  status: number;
  ms: number;
  cpuMs: number;
}

/**
 * Uploads `file` as streamUpload does, with curl instead of this process: curl sends a file for a fraction of the CPU a
 * Node client spends, so a client on the registry's own two cores takes less of them, as a remote client would take
 * none. `bitsPerSecond` paces it (`--limit-rate`). The time is curl's own (`time_total`), which leaves out starting it.
 */
export function curlUpload(
  url: string,
  cookie: string,
  version: string,
  file: string,
  options: { bitsPerSecond?: number } = {},
): Promise<CurlUpload> {
  const args = [
    '-f',
    '%U %S',
    'curl',
    '-sS',
    '-o',
    '/dev/null',
    '-w',
    '%{http_code} %{time_total}\n',
    '-H',
    `cookie: ${cookie}`,
    // Without this curl waits for a 100 Continue before a large body.
    '-H',
    'Expect:',
    '-F',
    `version=${version}`,
    '-F',
    `file=@${file};type=application/zip;filename=package.zip`,
    ...(options.bitsPerSecond === undefined ? [] : ['--limit-rate', String(Math.round(options.bitsPerSecond / 8))]),
    url,
  ];
  return new Promise((resolve, reject) => {
    execFile('/usr/bin/time', args, (error, stdout, stderr) => {
      if (error !== null) {
        reject(new Error(`curl failed: ${stderr || error.message}`));
        return;
      }
      const [status, seconds] = stdout.trim().split(' ').map(Number);
      // GNU time's line is the last of its standard error: user and system seconds.
      const [user, system] = stderr.trim().split('\n').at(-1)!.split(' ').map(Number);
      resolve({ status: status!, ms: seconds! * 1000, cpuMs: (user! + system!) * 1000 });
    });
  });
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** One GET as a bare client sends it (no Accept-Encoding), the body as received. */
export function getRaw(url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}
