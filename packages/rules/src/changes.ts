/**
 * Every type of change-feed entry (`GET /v1/changes`), which webhooks deliver too. The server writes them (migration
 * 0017); the API's schemas and the typed client name them from here.
 */
export const CHANGE_TYPES = [
  'skill.created',
  'skill.published',
  'skill.republished',
  'skill.deprecated',
  'skill.updated',
  'skill.transferred',
  'skill.renamed',
  'skill.hidden',
  'skill.restored',
  'skill.deleted',
  'version.uploaded',
  'version.deleted',
  'version.quarantined',
  'version.released',
] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];

/** The event a webhook's test sends: the shape of an entry, with no skill. */
export const WEBHOOK_PING = 'webhook.ping';

/** The page size of the change feed when none is asked for, and the most one page holds. */
export const CHANGES_DEFAULT_LIMIT = 100;
export const CHANGES_MAX_LIMIT = 1000;
