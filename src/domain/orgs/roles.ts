import type { OrgRole as StoredOrgRole } from '../../db/repositories/organisations.js';
import type { Same } from '../../lib/same-type.js';

/** The roles a member of an organisation may hold, from the most to the least power. */
export const ORG_ROLES = ['owner', 'admin', 'publisher'] as const;
export type OrgRole = (typeof ORG_ROLES)[number];
// The roles the domain knows are the ones the members table stores.
true satisfies Same<OrgRole, StoredOrgRole>;

/**
 * What each role may do:
 * - owner: everything, including owners, deleting the organisation and its skills' privacy and ownership;
 * - admin: members other than owners, the organisation's name, and every skill;
 * - publisher: create skills in the scope, upload versions, edit metadata.
 */
export const orgRules = {
  /** Create skills in the scope, upload versions, edit metadata, and every right a skill's owner has. */
  manageSkills: (role: OrgRole | undefined): boolean => role !== undefined,
  /** Invite, remove and change the roles of members; `target` is the role given or held. */
  manageMember: (role: OrgRole | undefined, target: OrgRole): boolean => role === 'owner' || (role === 'admin' && target !== 'owner'),
  /** The organisation's own details (display name), its invitations and a skill's privacy. */
  administer: (role: OrgRole | undefined): boolean => role === 'owner' || role === 'admin',
  /** Delete the organisation. */
  own: (role: OrgRole | undefined): boolean => role === 'owner',
};
