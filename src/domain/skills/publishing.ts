import { conflict } from '../errors.js';
import type { SkillStatus } from './statuses.js';

/**
 * Publishing lists a skill for everyone to install, so it needs a version they can install. A skill without one
 * would show "no version" in search and fail every install. A skill whose every version is quarantined is left to
 * `checkPublishable` (quarantine.ts), whose override an administrator may use deliberately.
 */
export function requireInstallableVersion(
  skill: { slug: string; latest_version: string | null; quarantined: number },
  to: SkillStatus,
): void {
  if (to !== 'published' || skill.latest_version !== null || skill.quarantined === 1) return;
  throw conflict(
    'no_installable_version',
    `"${skill.slug}" has no version, so nobody could install it once published. Its owner uploads a version first ` +
      `(POST /v1/skills/${skill.slug}/versions, \`skill-registry publish\`, or "Upload a version" in the console); then publish it.`,
  );
}

/** What publishing clears besides the status: a reviewer's earlier decline no longer applies. */
export const CLEARED_BY_PUBLISHING = { declined_at: null, decline_reason: null } as const;
