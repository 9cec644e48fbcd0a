import type { OrgRole } from '../api/types';

export const ROLE_LABEL: Record<OrgRole, string> = { owner: 'Owner', admin: 'Admin', publisher: 'Publisher' };

export const ROLE_MEANING: Record<OrgRole, string> = {
  owner: 'Everything, including owners and deleting the organisation.',
  admin: 'Members other than owners, and every skill.',
  publisher: 'Creates skills in the scope, uploads versions, edits details.',
};

/** A member's role in an organisation, in words. */
export function RoleBadge({ role }: { role: OrgRole }) {
  return (
    <span className={`badge badge-role badge-role-${role}`} title={ROLE_MEANING[role]}>
      {ROLE_LABEL[role]}
    </span>
  );
}
