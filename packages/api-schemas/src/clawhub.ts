import { Type } from 'typebox';

/**
 * The ClawHub protocol (what the `clawhub` command line speaks, under /api/v1 and /api/cli): its answers as the
 * client validates them. Timestamps are milliseconds since the epoch; keys the client requires are always present.
 */

const Ms = Type.Number({ description: 'Milliseconds since the epoch.' });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const ClawhubDiscovery = Type.Object(
  { apiBase: Type.String(), authBase: Type.String(), registry: Type.String() },
  { description: 'Where the `clawhub` client finds the API (CLAWHUB_SITE discovery).' },
);

export const ClawhubOwner = Type.Object({
  handle: Nullable(Type.String()),
  displayName: Nullable(Type.String()),
  image: Nullable(Type.String()),
  kind: Type.Optional(Type.Union([Type.Literal('user'), Type.Literal('org')])),
});

export const ClawhubModeration = Type.Object(
  {
    isSuspicious: Type.Boolean(),
    isMalwareBlocked: Type.Boolean(),
    verdict: Type.String({ description: 'clean, suspicious, malicious, or pending (never scanned).' }),
    reasonCodes: Type.Array(Type.String()),
  },
  { description: "From the registry's package scans: malicious blocks installs, suspicious asks for confirmation." },
);

export const ClawhubVersionSummary = Type.Object({
  version: Type.String(),
  createdAt: Ms,
  changelog: Type.String(),
  changelogSource: Type.Optional(Type.Union([Type.Literal('auto'), Type.Literal('user'), Type.Null()])),
  license: Type.Optional(Type.Null({ description: 'The registry records no licence for a package: always null.' })),
});

const SkillFields = {
  slug: Type.String(),
  displayName: Type.String(),
  summary: Nullable(Type.String()),
  description: Type.Optional(Nullable(Type.String())),
  topics: Type.Array(Type.String()),
  tags: Type.Record(Type.String(), Type.String(), { description: '`latest`: the latest installable version.' }),
  stats: Type.Object({ downloads: Type.Integer(), installsAllTime: Type.Integer() }),
  createdAt: Ms,
  updatedAt: Ms,
};

export const ClawhubSkillDetail = Type.Object({
  skill: Nullable(Type.Object(SkillFields)),
  latestVersion: Nullable(ClawhubVersionSummary),
  owner: Nullable(ClawhubOwner),
  metadata: Type.Null(),
  moderation: Nullable(ClawhubModeration),
});

export const ClawhubModerationAnswer = Type.Object({ moderation: ClawhubModeration });

export const ClawhubVersionList = Type.Object({ items: Type.Array(ClawhubVersionSummary), nextCursor: Nullable(Type.String()) });

export const ClawhubVersionDetail = Type.Object({
  version: Nullable(
    Type.Object({
      ...ClawhubVersionSummary.properties,
      files: Type.Array(Type.Object({ path: Type.String(), size: Type.Integer(), sha256: Type.String(), contentType: Type.String() })),
      security: Type.Object({ status: Type.String(), hasWarnings: Type.Boolean() }),
    }),
  ),
  skill: Nullable(Type.Object({ slug: Type.String(), displayName: Type.String() })),
});

export const ClawhubSkillList = Type.Object({
  items: Type.Array(
    Type.Object({
      ...SkillFields,
      latestVersion: Type.Optional(
        Type.Object(ClawhubVersionSummary.properties, {
          description: 'The latest installable version; absent when the skill has none (every version quarantined).',
        }),
      ),
      ownerHandle: Type.String(),
    }),
  ),
  nextCursor: Nullable(Type.String()),
});

export const ClawhubSearch = Type.Object({
  results: Type.Array(
    Type.Object({
      score: Type.Number({ description: 'The rank order as a number in (0, 1]: the first result scores 1.' }),
      slug: Type.String(),
      displayName: Type.String(),
      summary: Nullable(Type.String()),
      version: Nullable(Type.String()),
      ownerHandle: Type.String(),
      owner: ClawhubOwner,
      downloads: Type.Integer(),
      updatedAt: Ms,
    }),
  ),
});

export const ClawhubResolve = Type.Object({
  slug: Type.String(),
  match: Nullable(Type.Object({ version: Type.String() })),
  latestVersion: Nullable(Type.Object({ version: Type.String() })),
});

export const ClawhubInstall = Type.Union([
  Type.Object({
    ok: Type.Literal(true),
    slug: Type.String(),
    installKind: Type.Literal('archive'),
    archive: Type.Object({ version: Type.String(), downloadUrl: Type.String() }),
  }),
  Type.Object({
    ok: Type.Literal(false),
    slug: Type.String(),
    reason: Type.Literal('archive_version_missing'),
    message: Type.String(),
    status: Type.Integer(),
  }),
]);

export const ClawhubWhoami = Type.Object({
  user: Type.Object({
    handle: Type.String(),
    displayName: Type.String(),
    image: Type.Null(),
    role: Type.Union([Type.Literal('admin'), Type.Literal('user')]),
  }),
});

export const ClawhubAmbiguous = Type.Object(
  {
    code: Type.Literal('AMBIGUOUS_SKILL_SLUG'),
    message: Type.String(),
    matches: Type.Array(Type.Object({ ownerHandle: Type.String(), slug: Type.String(), ref: Type.String(), url: Type.String() })),
  },
  { description: 'A bare slug that names skills of several owners: name one of them (`owner/slug`).' },
);

export const ClawhubUploadUrlBody = Type.Object({
  path: Type.String({ minLength: 1, maxLength: 1024 }),
  size: Type.Integer({ minimum: 0 }),
  sha256: Type.String({ minLength: 64, maxLength: 64 }),
  contentType: Type.Optional(Type.String({ maxLength: 200 })),
});

export const ClawhubUploadUrl = Type.Object({ uploadUrl: Type.String(), uploadTicket: Type.String() });

export const ClawhubUploaded = Type.Object({ storageId: Type.String() });

export const ClawhubPublishBody = Type.Object({
  slug: Type.String({ minLength: 1, maxLength: 200 }),
  displayName: Type.String({ maxLength: 200 }),
  ownerHandle: Type.Optional(Type.String({ maxLength: 100 })),
  version: Type.String({ maxLength: 200 }),
  changelog: Type.String({ maxLength: 100_000 }),
  acceptLicenseTerms: Type.Optional(Type.Boolean()),
  tags: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100 })),
  files: Type.Array(
    Type.Object({
      path: Type.String({ minLength: 1, maxLength: 1024 }),
      size: Type.Integer({ minimum: 0 }),
      sha256: Type.String({ minLength: 64, maxLength: 64 }),
      storageId: Type.Optional(Type.String({ maxLength: 200 })),
      contentType: Type.Optional(Type.String({ maxLength: 200 })),
      uploadTicket: Type.Optional(Type.String({ maxLength: 200 })),
    }),
    { maxItems: 10_000 },
  ),
});

export const ClawhubPublished = Type.Object({
  ok: Type.Literal(true),
  skillId: Type.String(),
  versionId: Type.String(),
  slug: Type.String(),
  version: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('published')]),
  publicationStatus: Type.Union([Type.Literal('pending'), Type.Literal('published')], {
    description: '`pending`: a new skill is a draft until a reviewer publishes it; `published`: a version of a published skill.',
  }),
});

export const ClawhubDeviceCodeBody = Type.Object({
  scope: Type.Optional(Type.String({ maxLength: 200 })),
  site_url: Type.Optional(Type.String({ maxLength: 2000 })),
  label: Type.Optional(Type.String({ maxLength: 200 })),
  client_id: Type.Optional(Type.String({ maxLength: 200 })),
});

export const ClawhubDeviceCode = Type.Object({
  device_code: Type.String(),
  user_code: Type.String(),
  verification_uri: Type.String(),
  verification_uri_complete: Type.String(),
  expires_in: Type.Integer(),
  interval: Type.Integer(),
});

export const ClawhubDeviceTokenBody = Type.Object({
  device_code: Type.String({ maxLength: 200 }),
  grant_type: Type.Optional(Type.String({ maxLength: 200 })),
  client_id: Type.Optional(Type.String({ maxLength: 200 })),
});

export const ClawhubDeviceToken = Type.Object({ access_token: Type.String(), token_type: Type.String(), scope: Type.String() });

export const ClawhubDeviceError = Type.Object(
  {
    error: Type.String({ description: 'authorization_pending, slow_down, expired_token, access_denied (RFC 8628).' }),
    interval: Type.Optional(Type.Integer()),
  },
  { description: 'The poll goes on (authorization_pending, slow_down) or ends (expired_token, access_denied).' },
);

export const DeviceDecisionBody = Type.Object({
  user_code: Type.String({ minLength: 1, maxLength: 20, description: 'The code `clawhub login` printed.' }),
  approve: Type.Boolean({ description: 'true: make an API key for the signed-in user and hand it to the waiting command; false: refuse.' }),
});

export const DeviceDecision = Type.Object({ user_code: Type.String(), label: Type.String(), approved: Type.Boolean() });

export const ClawhubOk = Type.Object({ ok: Type.Literal(true) });

/** The JSON text of the `payload` part of the legacy one-step publish (`clawdhub` 0.3.0, multipart). */
export const ClawdhubPayload = Type.Object(
  {
    slug: Type.String({ minLength: 1, maxLength: 200 }),
    displayName: Type.String({ maxLength: 200 }),
    ownerHandle: Type.Optional(Type.String({ maxLength: 100 })),
    version: Type.String({ maxLength: 200 }),
    changelog: Type.String({ maxLength: 100_000 }),
    tags: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100 })),
    forkOf: Type.Optional(Type.Unknown()),
  },
  { description: 'a JSON object with slug, displayName, version and changelog' },
);

export const ClawhubTransferRequestBody = Type.Object({
  toUserHandle: Type.String({ minLength: 1, maxLength: 100, description: 'The user or organisation the skill is offered to.' }),
  message: Type.Optional(Type.String({ maxLength: 2000, description: 'Accepted and not kept: an offer carries no message here.' })),
});

export const ClawhubTransferRequested = Type.Object({
  ok: Type.Literal(true),
  transferId: Type.String(),
  toUserHandle: Type.String(),
  skillSlug: Type.String(),
  expiresAt: Ms,
  transferred: Type.Literal(false, { description: 'Always false: the receiver accepts an offer before the skill moves.' }),
});

export const ClawhubTransferDecision = Type.Object({ ok: Type.Literal(true), skillSlug: Type.String() });

const TransferParty = Type.Object({ _id: Type.String(), handle: Nullable(Type.String()), displayName: Nullable(Type.String()) });

export const ClawhubTransferList = Type.Object({
  transfers: Type.Array(
    Type.Object({
      _id: Type.String({ description: 'The offer, as /v1/transfers/{id} names it.' }),
      skill: Type.Object({ _id: Type.String(), slug: Type.String(), displayName: Type.String() }),
      fromUser: Type.Optional(TransferParty),
      toUser: Type.Optional(TransferParty),
      requestedAt: Ms,
      expiresAt: Ms,
    }),
  ),
});

export const ClawhubRenameBody = Type.Object({
  newSlug: Type.String({ minLength: 1, maxLength: 200 }),
  ownerHandle: Type.Optional(Type.String({ maxLength: 120 })),
});

export const ClawhubRenamed = Type.Object({ ok: Type.Literal(true), slug: Type.String(), previousSlug: Type.String() });

export const ClawhubPublisherBody = Type.Object({
  handle: Type.String({ minLength: 1, maxLength: 100 }),
  displayName: Type.Optional(Type.String({ maxLength: 200 })),
});

export const ClawhubPublisherCreated = Type.Object({
  ok: Type.Literal(true),
  publisherId: Type.String({ description: "The organisation's id." }),
  handle: Type.String(),
  created: Type.Literal(true),
  trusted: Type.Literal(false),
});

export const ClawhubDeleteBody = Type.Object({
  version: Type.Optional(Type.String({ maxLength: 200 })),
  reason: Type.Optional(Type.String({ maxLength: 2000, description: 'Accepted and not kept.' })),
  ownerHandle: Type.Optional(Type.String({ maxLength: 120 })),
});
