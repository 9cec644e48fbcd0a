/**
 * The typed client of the Skill Registry API (`import { createClient } from '@skill-registry/client'`).
 * Its request and response types are derived from the schemas the registry validates with (@skill-registry/api-schemas).
 */
export { createClient, RegistryClient } from './client.js';
export { ConnectionError, IntegrityError, LocalFileError, ProblemError, RegistryError, UploadSourceError } from './errors.js';
export type { ClientOptions, Credentials } from './transport.js';
export type { PackageInput, ProgressCallback } from './multipart.js';
export type { DownloadOptions, PackageDownload, SaveOptions, UploadOptions } from './api/versions.js';
export { sha256FromReprDigest } from './api/versions.js';
export type * from './types.js';
export type { Notification, NotificationList, NotificationQuery } from './api/me.js';
export type {
  ChangeEntry,
  ChangePage,
  ChangesQuery,
  CreateWebhookBody,
  UpdateWebhookBody,
  Webhook,
  WebhookDelivery,
} from './api/changes.js';
