import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { parse as parseDisposition } from 'content-disposition';
import { Writable } from 'node:stream';
import { ConnectionError, IntegrityError, LocalFileError, RegistryError } from '../errors.js';
import { multipartBody, resolvePackage, type PackageInput, type ProgressCallback } from '../multipart.js';
import { filePath, segment, type Transport } from '../transport.js';
import type {
  FileList,
  PackageValidation,
  RescanBody,
  ScanReport,
  SkillWithVersion,
  UploadFields,
  Version,
  VersionList,
  VersionListQuery,
  WithPackageFields,
} from '../types.js';

export interface UploadOptions {
  onProgress?: ProgressCallback;
  signal?: AbortSignal;
}

export interface DownloadOptions {
  /** A previous ETag: an unchanged package answers 304 with no body. */
  ifNoneMatch?: string;
  /** One byte range (inclusive `end`, to the end of the package when absent): answers 206. */
  range?: { start: number; end?: number };
  signal?: AbortSignal;
}

/** A package download as it arrives, before any byte is read. */
export interface PackageDownload {
  status: number;
  /** The bytes; null for a 304. */
  body: ReadableStream<Uint8Array> | null;
  /** Content-Length: the package's size for a whole download. */
  size: number | null;
  /** The sha256 the registry publishes for the package (from `Repr-Digest`, else the ETag), lower-case hex. */
  sha256: string | null;
  etag: string | null;
  /** The file name from Content-Disposition, e.g. `pdf-tools-1.2.0.zip`. */
  filename: string | null;
  contentType: string | null;
  request_id: string | null;
}

export interface SaveOptions {
  /** The sha256 the package must have (the version record's `sha256`); the Repr-Digest header is always checked too. */
  expectedSha256?: string;
  /** Called as bytes arrive: bytes so far, and the size when known. */
  onProgress?: ProgressCallback;
  signal?: AbortSignal;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** `sha-256=:<base64>:` (RFC 9530) as hex, or null when the header carries no sha-256. */
export function sha256FromReprDigest(header: string | null): string | null {
  const match = header === null ? null : /(?:^|,)\s*sha-256=:([A-Za-z0-9+/=]+):/i.exec(header);
  if (!match) return null;
  const hex = Buffer.from(match[1]!, 'base64').toString('hex');
  return SHA256_HEX.test(hex) ? hex : null;
}

/** The file name a Content-Disposition header gives, from `filename*` (RFC 8187) when present; null if none or malformed. */
export function filenameFrom(disposition: string | null): string | null {
  if (disposition === null) return null;
  try {
    return parseDisposition(disposition).parameters.filename ?? null;
  } catch {
    return null;
  }
}

/** Versions of a skill and their packages. */
export class VersionsApi {
  constructor(private readonly transport: Transport) {}

  /** `GET /v1/skills/:skillId/versions`: newest semver first. */
  list(skill: string, query: VersionListQuery = {}): Promise<VersionList> {
    return this.transport.json('GET', `/v1/skills/${segment(skill)}/versions`, { query });
  }

  /** `GET /v1/skills/:skillId/versions/:version`; `latest` names the highest release. */
  get(skill: string, version = 'latest'): Promise<Version> {
    return this.transport.json('GET', `/v1/skills/${segment(skill)}/versions/${segment(version)}`);
  }

  /**
   * `GET /v1/skills/:skillId/versions/:version/scan`: the scanner's full report of a version (every finding, the
   * URLs and domains the package mentions). 404 `scan_not_found` for a version that was never scanned.
   */
  scan(skill: string, version: string): Promise<ScanReport> {
    return this.transport.json('GET', `/v1/skills/${segment(skill)}/versions/${segment(version)}/scan`);
  }

  /**
   * `POST /v1/skills/:skillId/versions/:version/scan`: the owner (or an admin session) scans the stored package again
   * with the current rules, leaving an `explanation` for reviewers if given (an empty one removes it).
   */
  rescan(skill: string, version: string, body: RescanBody = {}): Promise<ScanReport> {
    return this.transport.json('POST', `/v1/skills/${segment(skill)}/versions/${segment(version)}/scan`, { json: body });
  }

  /** `POST /v1/skills/:skillId/versions`: uploads a new version of an existing skill (streamed). */
  async upload(skill: string, fields: UploadFields, file: PackageInput, options: UploadOptions = {}): Promise<Version> {
    return this.multipart(`/v1/skills/${segment(skill)}/versions`, { ...fields }, file, options);
  }

  /** `POST /v1/skills/with-package`: creates a draft skill and its first version in one request (streamed). */
  async createSkill(fields: WithPackageFields, file: PackageInput, options: UploadOptions = {}): Promise<SkillWithVersion> {
    const { tags, ...rest } = fields;
    return this.multipart(
      '/v1/skills/with-package',
      { ...rest, tags: tags === undefined ? undefined : JSON.stringify(tags) },
      file,
      options,
    );
  }

  /** `POST /v1/packages/validate`: runs every check the registry would, stores nothing. */
  async validate(file: PackageInput, options: UploadOptions = {}): Promise<PackageValidation> {
    return this.multipart('/v1/packages/validate', {}, file, options);
  }

  private async multipart<T>(
    path: string,
    fields: Record<string, string | undefined>,
    file: PackageInput,
    options: UploadOptions,
  ): Promise<T> {
    const body = multipartBody(fields, await resolvePackage(file), options.onProgress);
    return this.transport.json<T>('POST', path, {
      body: body.body,
      headers: {
        'content-type': body.contentType,
        ...(body.contentLength !== null ? { 'content-length': String(body.contentLength) } : {}),
      },
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  /** `GET /v1/skills/:skillId/versions/:version/download`: the package as a stream, with its published digest. */
  async download(skill: string, version = 'latest', options: DownloadOptions = {}): Promise<PackageDownload> {
    const headers: Record<string, string> = { accept: '*/*' };
    if (options.ifNoneMatch !== undefined) headers['if-none-match'] = options.ifNoneMatch;
    if (options.range !== undefined) headers.range = `bytes=${options.range.start}-${options.range.end ?? ''}`;
    const response = await this.transport.send('GET', `/v1/skills/${segment(skill)}/versions/${segment(version)}/download`, {
      headers,
      accept: [304],
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const etag = response.headers.get('etag');
    const etagHex = etag?.replace(/^W\//, '').replace(/"/g, '').toLowerCase() ?? null;
    const length = response.headers.get('content-length');
    return {
      status: response.status,
      body: response.status === 304 ? null : response.body,
      size: length === null ? null : Number(length),
      sha256: sha256FromReprDigest(response.headers.get('repr-digest')) ?? (etagHex !== null && SHA256_HEX.test(etagHex) ? etagHex : null),
      etag,
      filename: filenameFrom(response.headers.get('content-disposition')),
      contentType: response.headers.get('content-type'),
      request_id: response.headers.get('x-request-id'),
    };
  }

  /**
   * Downloads a whole package to `path`, hashing it on the way. When the bytes do not match the sha256 the
   * registry publishes (or `expectedSha256`), the file is removed and an IntegrityError thrown.
   */
  async downloadToFile(
    skill: string,
    version: string,
    path: string,
    options: SaveOptions = {},
  ): Promise<{ sha256: string; size: number; request_id: string | null }> {
    const download = await this.download(skill, version, options.signal ? { signal: options.signal } : {});
    if (download.body === null) {
      throw new RegistryError({
        status: download.status,
        code: 'no_body',
        detail: 'The registry sent no package.',
        request_id: download.request_id,
      });
    }
    const hash = createHash('sha256');
    let size = 0;
    let fileError: unknown = null;
    const file = createWriteStream(path, { flags: 'wx', mode: 0o600 }).on('error', (error) => (fileError = error));
    const sink = Writable.toWeb(file) as WritableStream<Uint8Array>;
    const counter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        hash.update(chunk);
        size += chunk.byteLength;
        options.onProgress?.(size, download.size);
        controller.enqueue(chunk);
      },
    });
    try {
      await download.body.pipeThrough(counter).pipeTo(sink);
    } catch (error) {
      // A file that could not be opened (it exists: 'wx') must not be removed; one half written must.
      if ((fileError as NodeJS.ErrnoException | null)?.code !== 'EEXIST') await rm(path, { force: true });
      if (options.signal?.aborted) throw error;
      if (fileError !== null) throw new LocalFileError(`Could not write ${path}: ${(fileError as Error).message}`, fileError);
      throw new ConnectionError(this.transport.address, error);
    }
    const actual = hash.digest('hex');
    const published = [options.expectedSha256?.toLowerCase(), download.sha256].filter((v): v is string => v !== undefined && v !== null);
    const expected = published.find((sha) => sha !== actual);
    if (expected !== undefined) {
      await rm(path, { force: true });
      throw new IntegrityError(expected, actual, `The package of ${skill}@${version}`, download.request_id);
    }
    if (download.size !== null && download.size !== size) {
      await rm(path, { force: true });
      throw new RegistryError({
        status: download.status,
        code: 'size_mismatch',
        detail: `The package of ${skill}@${version} is ${size} bytes; the registry announced ${download.size}.`,
        request_id: download.request_id,
      });
    }
    return { sha256: actual, size, request_id: download.request_id };
  }

  /** `GET …/versions/:version/files`: the package's files, sorted by path. */
  files(skill: string, version = 'latest'): Promise<FileList> {
    return this.transport.json('GET', `/v1/skills/${segment(skill)}/versions/${segment(version)}/files`);
  }

  /** `GET …/versions/:version/files/<path>`: one file of the package, as a Response to read as text or bytes. */
  file(skill: string, version: string, path: string, options: { signal?: AbortSignal } = {}): Promise<Response> {
    return this.transport.send('GET', `/v1/skills/${segment(skill)}/versions/${segment(version)}/files/${filePath(path)}`, {
      headers: { accept: '*/*' },
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }
}
