import type { ClawhubRepository } from '../../db/repositories/clawhub.js';
import type { VersionsRepository } from '../../db/repositories/versions.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { UserIdentity } from '../actor.js';
import type { ApiKeyService } from '../accounts/api-keys.js';
import type { SkillService } from '../skills/skills.js';
import type { VersionService } from '../versions/versions.js';
import { clawhubArchives } from './archives.js';
import type { OrganisationService } from '../orgs/organisations.js';
import type { TransferService } from '../skills/transfers.js';
import { deviceLogins } from './device.js';
import { clawhubManagement } from './manage.js';
import { skillNames } from './names.js';
import { clawhubPublishing } from './publish.js';
import { clawhubReads } from './reads.js';

/**
 * The ClawHub protocol (what the `clawhub` command line speaks) as a thin adapter over the registry's own services:
 * name mapping (names.ts), reads (reads.ts), archives and fingerprints (archives.ts, fingerprint.ts), publishing
 * (publish.ts) and device logins (device.ts). docs/api-decisions.md, "The ClawHub protocol", says what maps to what.
 */
export function clawhubService(deps: {
  repository: ClawhubRepository;
  skills: SkillService;
  versions: VersionService;
  versionRows: VersionsRepository;
  blobs: BlobStore;
  apiKeys: ApiKeyService;
  findUser: (id: string) => Promise<UserIdentity | null>;
  transfers: TransferService;
  orgs: OrganisationService;
  publicUrl: string;
  maxUploadBytes: number;
}) {
  const names = skillNames({
    repository: deps.repository,
    skills: deps.skills,
    pageUrl: (name) => `${deps.publicUrl}/skills/${name}`,
    formerName: (actor, name) => deps.transfers.whereNow(actor, name),
  });
  const archives = clawhubArchives({ repository: deps.repository, versions: deps.versionRows, blobs: deps.blobs });
  return {
    names,
    reads: clawhubReads({
      repository: deps.repository,
      names,
      skills: deps.skills,
      versions: deps.versions,
      versionRows: deps.versionRows,
      archives,
    }),
    publishing: clawhubPublishing({
      repository: deps.repository,
      names,
      skills: deps.skills,
      versions: deps.versions,
      versionRows: deps.versionRows,
      archives,
      blobs: deps.blobs,
      maxUploadBytes: deps.maxUploadBytes,
      uploadUrl: (ticket) => `${deps.publicUrl}/api/v1/skills/-/upload/${ticket}`,
    }),
    management: clawhubManagement({
      names,
      skills: deps.skills,
      versions: deps.versions,
      transfers: deps.transfers,
      orgs: deps.orgs,
    }),
    devices: deviceLogins({
      repository: deps.repository,
      apiKeys: deps.apiKeys,
      verificationUri: `${deps.publicUrl}/device`,
      findUser: deps.findUser,
    }),
  };
}

export type ClawhubService = ReturnType<typeof clawhubService>;
