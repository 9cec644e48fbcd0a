import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { checkEntryPath } from '@skill-registry/skill-package/inspect';
import type { ClawhubRepository } from '../../db/repositories/clawhub.js';
import type { VersionsRepository } from '../../db/repositories/versions.js';
import { BlobTooLargeError, type BlobStore } from '../../storage/blob-store.js';
import type { AuthenticatedActor } from '../actor.js';
import { AppError, badRequest, conflict, notFound, validationFailed } from '../errors.js';
import type { Skill, SkillService } from '../skills/skills.js';
import { deterministicZip } from '../versions/agent-archive.js';
import type { VersionService } from '../versions/versions.js';
import type { ClawhubArchives } from './archives.js';
import { fingerprintOf, type FileDigest } from './fingerprint.js';
import { ownerHandleOf, skillNotFound, type SkillNames } from './names.js';

/** How long an upload ticket stays good: well inside orphan collection's hour, so uploaded bytes outlive their ticket. */
export const TICKET_TTL_MS = 30 * 60 * 1000;

/** What `POST /api/v1/skills/-/upload-url` asks for: one file of a publish. */
export interface TicketRequest {
  path: string;
  size: number;
  sha256: string;
  contentType?: string;
}

/** The JSON publish of `clawhub publish`, the fields this registry reads. */
export interface PublishRequest {
  slug: string;
  displayName: string;
  ownerHandle?: string;
  version: string;
  changelog: string;
  files: { path: string; size: number; sha256: string; storageId?: string; uploadTicket?: string }[];
}

/** What a publish answers; the same for a retried request that finds its version already written. */
export interface PublishAnswer {
  ok: true;
  skillId: string;
  versionId: string;
  slug: string;
  version: string;
  status: 'pending' | 'published';
  publicationStatus: 'pending' | 'published';
}

function ticketGone(id: string): AppError {
  return notFound(
    'upload_ticket_not_found',
    `No live upload ticket "${id}" of yours: tickets last ${TICKET_TTL_MS / 60_000} minutes. Run the publish again for new ones.`,
  );
}

/**
 * `clawhub publish`: each file gets a ticket (its path, size and sha256, bound to the uploader), its bytes are
 * uploaded against the ticket and kept in the blob store, and the publish builds a package from the uploaded files
 * (a ZIP with them at its root) and hands it to the same upload path as /v1: scanned, quarantined when malicious, a
 * draft when the skill is new, a new version of a skill the caller owns or publishes for. Uploaded bytes no version
 * references are removed by orphan collection; expired tickets are removed when new ones are made.
 */
export function clawhubPublishing(deps: {
  repository: ClawhubRepository;
  names: SkillNames;
  skills: SkillService;
  versions: VersionService;
  versionRows: VersionsRepository;
  archives: ClawhubArchives;
  blobs: BlobStore;
  maxUploadBytes: number;
  uploadUrl: (ticket: string) => string;
}) {
  const { repository } = deps;

  async function liveTicket(actor: AuthenticatedActor, id: string) {
    const row = await repository.ticket(id);
    if (row?.user_id !== actor.user.id || new Date(row.expires_at).getTime() <= Date.now()) throw ticketGone(id);
    return row;
  }

  function answer(skill: Skill, versionId: string, version: string): PublishAnswer {
    const status = skill.status === 'published' ? 'published' : 'pending';
    return { ok: true, skillId: skill.id, versionId, slug: skill.slug, version, status, publicationStatus: status };
  }

  /** The skill a publish adds a version to, or null for a new one. */
  async function existing(actor: AuthenticatedActor, slug: string, owner: string): Promise<Skill | null> {
    try {
      return await deps.names.find(actor, slug, owner);
    } catch (error) {
      if (error instanceof AppError && error.code === 'skill_not_found') return null;
      throw error;
    }
  }

  /**
   * Where a new skill is named: in an organisation's scope when the owner handle names one; otherwise unscoped,
   * as ClawHub's slugs are, or in the caller's own scope when another owner's skill holds the unscoped slug.
   */
  async function scopeFor(actor: AuthenticatedActor, slug: string, owner: string): Promise<string | null> {
    if (owner !== actor.user.username.toLowerCase()) return owner;
    const taken = (await deps.names.all(slug)).some((m) => m.scope === null);
    return taken ? actor.user.username : null;
  }

  async function filesOf(actor: AuthenticatedActor, request: PublishRequest): Promise<FileDigest[]> {
    if (request.files.length === 0)
      throw validationFailed([{ field: 'files', message: 'must list the files of the skill, SKILL.md among them' }]);
    const files: FileDigest[] = [];
    const seen = new Set<string>();
    for (const [i, file] of request.files.entries()) {
      if (file.uploadTicket === undefined) {
        throw validationFailed([
          { field: `files[${i}].uploadTicket`, message: 'is required: upload each file through /api/v1/skills/-/upload-url first' },
        ]);
      }
      const ticket = await liveTicket(actor, file.uploadTicket);
      if (ticket.path !== file.path || ticket.sha256 !== file.sha256.toLowerCase()) {
        throw badRequest(
          'upload_mismatch',
          `The file "${file.path}" is not the one its ticket was made for ("${ticket.path}"); upload it again.`,
        );
      }
      if (ticket.uploaded_at === null) {
        throw badRequest('upload_incomplete', `The file "${file.path}" was never uploaded: POST its bytes to its upload URL first.`);
      }
      if (seen.has(ticket.path)) throw validationFailed([{ field: `files[${i}].path`, message: `"${ticket.path}" is listed twice` }]);
      seen.add(ticket.path);
      files.push({ path: ticket.path, size: ticket.size, sha256: ticket.sha256 });
    }
    checkTotal(files);
    return files;
  }

  async function readBlob(sha256: string): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of (await deps.blobs.source(sha256)).read()) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async function versionIdOf(skillId: string, version: string): Promise<string> {
    const row = await deps.versionRows.find(skillId, version);
    if (!row) throw notFound('version_not_found', `Version ${version} was not found after it was written; publish again.`);
    return row.id;
  }

  /**
   * Publishes stored files as a version. A retried request whose version is already written with the same files gets
   * the same answer; with other files, 409 `version_exists`.
   */
  async function publishFiles(
    actor: AuthenticatedActor,
    request: Omit<PublishRequest, 'files'>,
    files: FileDigest[],
  ): Promise<PublishAnswer> {
    const owner = ownerHandleOf(request.ownerHandle) ?? actor.user.username.toLowerCase();
    if (request.slug.includes('/') || request.slug.includes('\\')) throw skillNotFound(request.slug);
    const digest = { fingerprint: fingerprintOf(files), files };
    const skill = await existing(actor, request.slug, owner);
    if (skill !== null) {
      await deps.skills.manageable(actor, skill.id);
      const written = await deps.versionRows.find(skill.id, request.version);
      if (written) {
        const [known] = (await deps.archives.digests([written])).values();
        if (known?.fingerprint === digest.fingerprint) return answer(skill, written.id, written.version);
        throw conflict(
          'version_exists',
          `Version ${request.version} of "${skill.full_name}" already exists with other files; versions are immutable. Publish with --version <a higher one>.`,
        );
      }
    }
    const zip = await deterministicZip(
      await Promise.all(files.map(async (f) => ({ path: f.path, bytes: await readBlob(f.sha256), executable: false }))),
    );
    const staged = await deps.versions.stage(Readable.from([zip]));
    const fields = { version: request.version, ...(request.changelog.trim() === '' ? {} : { changelog: request.changelog }) };
    let target: Skill;
    if (skill !== null) {
      await deps.versions.publish(actor, skill.id, fields, staged);
      target = await deps.skills.get(actor, skill.id);
    } else {
      const scope = await scopeFor(actor, request.slug, owner);
      const created = await deps.versions.publishWithSkill(actor, { name: request.displayName, slug: request.slug, scope }, fields, staged);
      target = created.skill;
    }
    const versionId = await versionIdOf(target.id, request.version);
    await deps.archives.remember(versionId, digest).catch(() => undefined);
    return answer(target, versionId, request.version);
  }

  function checkTotal(files: readonly FileDigest[]): void {
    const total = files.reduce((sum, f) => sum + f.size, 0);
    if (total > deps.maxUploadBytes) {
      throw new AppError(
        413,
        'payload_too_large',
        `The files add up to ${total} bytes; a package may hold at most ${deps.maxUploadBytes}.`,
      );
    }
  }

  return {
    async ticket(actor: AuthenticatedActor, request: TicketRequest): Promise<{ uploadUrl: string; uploadTicket: string }> {
      const path = checkEntryPath(request.path);
      if (!path.ok || path.isDirectory || path.path !== request.path) {
        throw validationFailed([
          { field: 'path', message: `is not a file path a package may hold: ${path.ok ? 'write it relative, with /' : path.rule}` },
        ]);
      }
      if (!/^[0-9a-fA-F]{64}$/.test(request.sha256))
        throw validationFailed([{ field: 'sha256', message: 'must be 64 hexadecimal digits' }]);
      if (!Number.isSafeInteger(request.size) || request.size < 0)
        throw validationFailed([{ field: 'size', message: 'must be a whole number of bytes' }]);
      if (request.size > deps.maxUploadBytes) {
        throw new AppError(
          413,
          'payload_too_large',
          `"${request.path}" has ${request.size} bytes; a package may hold at most ${deps.maxUploadBytes}.`,
        );
      }
      const now = Date.now();
      await repository.removeExpired(new Date(now).toISOString());
      const id = randomBytes(24).toString('base64url');
      await repository.insertTicket({
        id,
        user_id: actor.user.id,
        path: request.path,
        size: request.size,
        sha256: request.sha256.toLowerCase(),
        content_type: request.contentType ?? 'application/octet-stream',
        uploaded_at: null,
        created_at: new Date(now).toISOString(),
        expires_at: new Date(now + TICKET_TTL_MS).toISOString(),
      });
      return { uploadUrl: deps.uploadUrl(id), uploadTicket: id };
    },

    /** Takes a file's bytes against its ticket: exactly the declared size and sha256, or nothing is kept. */
    async upload(actor: AuthenticatedActor, ticketId: string, body: Readable): Promise<{ storageId: string }> {
      const ticket = await liveTicket(actor, ticketId);
      let staged;
      try {
        staged = await deps.blobs.stage(body, { maxBytes: ticket.size });
      } catch (error) {
        if (error instanceof BlobTooLargeError) {
          throw new AppError(413, 'payload_too_large', `"${ticket.path}" was declared as ${ticket.size} bytes, and more arrived.`);
        }
        throw error;
      }
      if (staged.size !== ticket.size || staged.sha256 !== ticket.sha256) {
        await staged.discard();
        throw badRequest(
          'upload_mismatch',
          `"${ticket.path}" arrived as ${staged.size} bytes with sha256 ${staged.sha256}; its ticket declared ${ticket.size} bytes with sha256 ${ticket.sha256}. Upload the same bytes that were declared.`,
        );
      }
      await staged.commit();
      await repository.markUploaded(ticket.id, new Date().toISOString());
      return { storageId: ticket.sha256 };
    },

    /** Publishes the files uploaded against tickets (`clawhub publish`) as a version: see publishFiles. */
    async publish(actor: AuthenticatedActor, request: PublishRequest): Promise<PublishAnswer> {
      return publishFiles(actor, request, await filesOf(actor, request));
    },

    /**
     * Keeps one file of the legacy one-step publish (`clawdhub` 0.3.0: multipart, a part per file, named by its path)
     * in the blob store, as an upload against a ticket would.
     */
    async storeFile(path: string, body: Readable): Promise<FileDigest> {
      const checked = checkEntryPath(path);
      if (!checked.ok || checked.isDirectory || checked.path !== path) {
        body.resume();
        throw validationFailed([
          {
            field: 'files',
            message: `"${path}" is not a file path a package may hold: ${checked.ok ? 'write it relative, with /' : checked.rule}`,
          },
        ]);
      }
      try {
        const stored = await deps.blobs.put(body, { maxBytes: deps.maxUploadBytes });
        return { path, size: stored.size, sha256: stored.sha256 };
      } catch (error) {
        if (error instanceof BlobTooLargeError) {
          throw new AppError(413, 'payload_too_large', `"${path}" is larger than a package may be (${deps.maxUploadBytes} bytes).`);
        }
        throw error;
      }
    },

    /** The legacy one-step publish, its files already stored by storeFile. */
    async publishStored(actor: AuthenticatedActor, request: Omit<PublishRequest, 'files'>, files: FileDigest[]): Promise<PublishAnswer> {
      if (files.length === 0)
        throw validationFailed([{ field: 'files', message: 'must hold the files of the skill, SKILL.md among them' }]);
      if (new Set(files.map((f) => f.path)).size !== files.length)
        throw validationFailed([{ field: 'files', message: 'holds one path twice' }]);
      checkTotal(files);
      return publishFiles(actor, request, files);
    },
  };
}

export type ClawhubPublishing = ReturnType<typeof clawhubPublishing>;
