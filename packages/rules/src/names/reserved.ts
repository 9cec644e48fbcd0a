import { skeleton } from './skeleton.js';

/**
 * Names no skill or account may take: words that would read as the registry speaking (admin, official, support),
 * and the first segment of the registry's own paths, API (`/v1/skills/with-package`, `/healthz`) and console
 * (`/me/skills/new`, `/signin`) alike, so that a name never shadows or imitates a page. The one list.
 */
export const RESERVED_NAMES: readonly string[] = [
  // The registry speaking.
  'admin',
  'administrator',
  'root',
  'system',
  'support',
  'security',
  'official',
  'help',
  'about',
  'staff',
  'moderator',
  'registry',
  // Versions and pseudo-names.
  'api',
  'v1',
  'v2',
  'latest',
  'me',
  'new',
  'www',
  'with-package',
  // Account pages.
  'login',
  'logout',
  'signin',
  'signout',
  'signup',
  'register',
  'settings',
  'session',
  // Operations and files.
  'docs',
  'static',
  'assets',
  'healthz',
  'readyz',
  'metrics',
  'openapi',
  // Collections the API and console name.
  'orgs',
  'skills',
  'users',
  'search',
  'auth',
  'feedback',
  'logs',
  'packages',
  'reports',
  'scans',
  'versions',
  'files',
  'stats',
  'keys',
  'api-keys',
  'review-queue',
];

const RESERVED_BY_SKELETON: ReadonlyMap<string, string> = new Map(RESERVED_NAMES.map((name) => [skeleton(name), name]));

/** The reserved word `name` is or looks like (`Adm1n`, `a_d_m_i_n`), or null. */
export function reservedWord(name: string): string | null {
  return RESERVED_BY_SKELETON.get(skeleton(name)) ?? null;
}
