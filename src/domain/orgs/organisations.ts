import type { InvitationRow, MemberRow, OrganisationRow, OrganisationsRepository } from '../../db/repositories/organisations.js';
import type { UsersRepository } from '../../db/repositories/users.js';
import { newId } from '../../lib/ids.js';
import { addDays, nowIso, toIso } from '../../lib/time.js';
import { USERNAME_PATTERN } from '@skill-registry/rules/account-fields';
import { checkDisplayText } from '@skill-registry/rules/display-text';
import type { Actor, AuthenticatedActor } from '../actor.js';
import { isAdminSession } from '../actor.js';
import { conflict, forbidden, notFound, validationFailed } from '../errors.js';
import { orgRules, ORG_ROLES, type OrgRole } from './roles.js';

export interface Organisation {
  id: string;
  handle: string;
  display_name: string;
  created_at: string;
  /** The caller's role, when the caller is a member; null otherwise. */
  role: OrgRole | null;
}

export interface Member {
  username: string;
  role: OrgRole;
  since: string;
}

export interface Invitation {
  id: string;
  organisation: string;
  username: string;
  role: OrgRole;
  invited_by: string | null;
  created_at: string;
  expires_at: string;
}

export const DISPLAY_NAME_MAX = 100;

const toMember = (row: MemberRow): Member => ({ username: row.username, role: row.role, since: toIso(row.created_at) });
const toInvitation = (row: InvitationRow): Invitation => ({
  id: row.id,
  organisation: row.org_handle,
  username: row.username,
  role: row.role,
  invited_by: row.invited_by_username,
  created_at: toIso(row.created_at),
  expires_at: toIso(row.expires_at),
});

function checkRole(role: string): OrgRole {
  if (!(ORG_ROLES as readonly string[]).includes(role))
    throw validationFailed([{ field: 'role', message: `must be one of ${ORG_ROLES.join(', ')}` }]);
  return role as OrgRole;
}

function checkDisplayName(value: string | undefined, handle: string): string {
  const name = (value ?? '').trim() || handle;
  if ([...name].length > DISPLAY_NAME_MAX)
    throw validationFailed([{ field: 'display_name', message: `must be at most ${DISPLAY_NAME_MAX} characters` }]);
  checkDisplayText('display_name', name);
  return name;
}

/**
 * Organisations: a user creates one and is its first owner; members hold a role (roles.ts); invitations are answered
 * by the invitee and expire after `invitationDays`; an organisation keeps at least one owner. Every change of members
 * and roles is recorded in the audit trail (target type `organisation`).
 */
export function organisationService(deps: {
  orgs: OrganisationsRepository;
  users: UsersRepository;
  invitationDays: number;
  /** Checks a new handle against the names already held (look-alikes, reserved words); throws the refusal. */
  checkNewHandle?: (handle: string, ownerId: string) => Promise<void>;
  /** A user's roles changed: cached answers about what that user may see are dropped. */
  membershipChanged?: (userId: string) => void;
}) {
  const { orgs, users } = deps;

  const audit = (actor: AuthenticatedActor, orgId: string, action: string, from: string | null, to: string | null) => ({
    id: newId(),
    actor_id: actor.user.id,
    action,
    target_type: 'organisation',
    target_id: orgId,
    from_value: from,
    to_value: to,
    reason: null,
    created_at: nowIso(),
  });

  async function load(handle: string): Promise<OrganisationRow> {
    const row = await orgs.findByHandle(handle.toLowerCase());
    if (row === undefined) throw notFound('org_not_found', `No organisation "${handle}".`);
    return row;
  }

  /** The caller's role in the organisation, or undefined; an administrator's session acts as an owner. */
  async function roleOf(actor: Actor, org: OrganisationRow): Promise<OrgRole | undefined> {
    if (actor.kind === 'anonymous') return undefined;
    if (isAdminSession(actor)) return 'owner';
    return orgs.role(org.id, actor.user.id);
  }

  async function requireRole(actor: Actor, org: OrganisationRow, allowed: (role: OrgRole | undefined) => boolean, what: string) {
    const role = await roleOf(actor, org);
    if (!allowed(role)) {
      // A non-member learns nothing it could not see anyway: the organisation is public, its members are not.
      throw forbidden(
        'org_role_required',
        `${what} in "${org.handle}" needs a higher role${role ? ` than ${role}` : '; you are not a member'}.`,
      );
    }
    return role;
  }

  const view = (row: OrganisationRow, role: OrgRole | undefined): Organisation => ({
    id: row.id,
    handle: row.handle,
    display_name: row.display_name,
    created_at: toIso(row.created_at),
    role: role ?? null,
  });

  async function userByHandle(username: string) {
    const user = await users.findByUsername(username.trim().toLowerCase());
    if (user === undefined) throw notFound('user_not_found', `No user "${username}".`);
    return user;
  }

  return {
    /** The caller's role in an organisation by id (undefined: not a member); for the skills' access rules. */
    async roleIn(actor: Actor, orgId: string): Promise<OrgRole | undefined> {
      if (actor.kind === 'anonymous') return undefined;
      return orgs.role(orgId, actor.user.id);
    },

    async findByHandle(handle: string): Promise<OrganisationRow | undefined> {
      return orgs.findByHandle(handle.toLowerCase());
    },

    async create(actor: AuthenticatedActor, input: { handle: string; display_name?: string | undefined }): Promise<Organisation> {
      const handle = input.handle.trim().toLowerCase();
      if (!USERNAME_PATTERN.test(handle)) {
        throw validationFailed([
          { field: 'handle', message: '2 to 39 characters: lower-case letters, digits, "_" and "-", starting with a letter or digit' },
        ]);
      }
      const displayName = checkDisplayName(input.display_name, handle);
      await deps.checkNewHandle?.(handle, actor.user.id);
      const now = nowIso();
      const row = { id: newId(), handle, display_name: displayName, created_at: now, updated_at: now };
      const outcome = await orgs.create(row, actor.user.id, audit(actor, row.id, 'org.create', null, handle));
      if (outcome === 'handle_taken')
        throw conflict('handle_taken', `The handle "${handle}" is taken by a user or an organisation; choose another.`);
      deps.membershipChanged?.(actor.user.id);
      return view(row, 'owner');
    },

    async get(actor: Actor, handle: string): Promise<Organisation> {
      const row = await load(handle);
      return view(row, actor.kind === 'anonymous' ? undefined : await orgs.role(row.id, actor.user.id));
    },

    /** The caller's organisations, with its role in each. */
    async mine(actor: AuthenticatedActor): Promise<Organisation[]> {
      const rows = await orgs.membershipsOf(actor.user.id);
      return Promise.all(
        rows.map(async (m) => {
          const row = await orgs.findById(m.org_id);
          return view(row!, m.role);
        }),
      );
    },

    async update(actor: AuthenticatedActor, handle: string, input: { display_name?: string | undefined }): Promise<Organisation> {
      const row = await load(handle);
      const role = await requireRole(actor, row, orgRules.administer, 'Changing the organisation');
      if (input.display_name !== undefined) {
        const name = checkDisplayName(input.display_name, row.handle);
        await orgs.updateDisplayName(row.id, name, nowIso());
      }
      return view((await orgs.findById(row.id))!, role);
    },

    async remove(actor: AuthenticatedActor, handle: string): Promise<void> {
      const row = await load(handle);
      await requireRole(actor, row, orgRules.own, 'Deleting the organisation');
      const members = await orgs.members(row.id);
      const outcome = await orgs.delete(row.id, audit(actor, row.id, 'org.delete', row.handle, null));
      if (outcome === 'owns_skills')
        throw conflict('org_owns_skills', `"${row.handle}" owns skills; transfer or delete them before deleting the organisation.`);
      for (const m of members) deps.membershipChanged?.(m.user_id);
    },

    /** Members and their roles: for members (and an administrator's session) only. */
    async members(actor: Actor, handle: string): Promise<Member[]> {
      const row = await load(handle);
      await requireRole(actor, row, (role) => role !== undefined, 'Seeing the members');
      return (await orgs.members(row.id)).map(toMember);
    },

    async invite(actor: AuthenticatedActor, handle: string, input: { username: string; role: string }): Promise<Invitation> {
      const row = await load(handle);
      const role = checkRole(input.role);
      await requireRole(actor, row, (mine) => orgRules.manageMember(mine, role), `Inviting a member as ${role}`);
      const invitee = await userByHandle(input.username);
      const now = nowIso();
      const invitation = {
        id: newId(),
        org_id: row.id,
        user_id: invitee.id,
        role,
        invited_by: actor.user.id,
        created_at: now,
        expires_at: addDays(now, deps.invitationDays),
      };
      const outcome = await orgs.invite(invitation, audit(actor, row.id, 'org.invite', invitee.username, role));
      if (outcome === 'member')
        throw conflict('already_member', `${invitee.username} already belongs to "${row.handle}"; change their role instead.`);
      return toInvitation((await orgs.findInvitation(invitation.id))!);
    },

    /** Open invitations of an organisation: for its owners and admins. */
    async invitations(actor: AuthenticatedActor, handle: string): Promise<Invitation[]> {
      const row = await load(handle);
      await requireRole(actor, row, orgRules.administer, 'Seeing the invitations');
      return (await orgs.openInvitations({ orgId: row.id }, nowIso())).map(toInvitation);
    },

    async withdraw(actor: AuthenticatedActor, handle: string, id: string): Promise<void> {
      const row = await load(handle);
      const invitation = await orgs.findInvitation(id);
      if (invitation?.org_id !== row.id) throw notFound('invitation_not_found', `No open invitation ${id} in "${row.handle}".`);
      await requireRole(actor, row, (mine) => orgRules.manageMember(mine, invitation.role), 'Withdrawing an invitation');
      if (!(await orgs.withdraw(id, audit(actor, row.id, 'org.invitation.withdraw', invitation.username, invitation.role))))
        throw notFound('invitation_not_found', `No open invitation ${id} in "${row.handle}".`);
    },

    /** The invitations waiting for the caller's answer. */
    async myInvitations(actor: AuthenticatedActor): Promise<Invitation[]> {
      return (await orgs.openInvitations({ userId: actor.user.id }, nowIso())).map(toInvitation);
    },

    async answer(actor: AuthenticatedActor, id: string, accept: boolean): Promise<Organisation | null> {
      const invitation = await orgs.findInvitation(id);
      const now = nowIso();
      if (invitation === undefined || toIso(invitation.expires_at) <= now)
        throw notFound('invitation_not_found', `No open invitation ${id}.`);
      if (invitation.user_id !== actor.user.id)
        throw forbidden('not_invitee', `Invitation ${id} is for ${invitation.username}; only they may answer it.`);
      const action = accept ? 'org.invitation.accept' : 'org.invitation.decline';
      const outcome = await orgs.answer(id, accept, now, audit(actor, invitation.org_id, action, invitation.username, invitation.role));
      if (outcome === 'gone') throw notFound('invitation_not_found', `Invitation ${id} was answered, withdrawn or expired meanwhile.`);
      deps.membershipChanged?.(actor.user.id);
      if (!accept) return null;
      return view((await orgs.findById(invitation.org_id))!, invitation.role);
    },

    async setRole(actor: AuthenticatedActor, handle: string, username: string, input: { role: string }): Promise<Member> {
      const row = await load(handle);
      const role = checkRole(input.role);
      const member = await userByHandle(username);
      const current = await orgs.role(row.id, member.id);
      if (current === undefined) throw notFound('member_not_found', `${member.username} is not a member of "${row.handle}".`);
      // Both the role held and the role given must be within the caller's power: an admin neither demotes an owner nor makes one.
      await requireRole(
        actor,
        row,
        (mine) => orgRules.manageMember(mine, current) && orgRules.manageMember(mine, role),
        `Changing a ${current}'s role to ${role}`,
      );
      const outcome = await orgs.setRole(
        row.id,
        member.id,
        role,
        audit(actor, row.id, 'org.role', `${member.username}:${current}`, `${member.username}:${role}`),
      );
      if (outcome === 'not_member') throw notFound('member_not_found', `${member.username} is not a member of "${row.handle}".`);
      if (outcome === 'last_owner')
        throw conflict('last_owner', `${member.username} is the last owner of "${row.handle}"; make another member an owner first.`);
      deps.membershipChanged?.(member.id);
      return toMember((await orgs.members(row.id)).find((m) => m.user_id === member.id)!);
    },

    /** Removes a member; any member may remove themselves (leave). */
    async removeMember(actor: AuthenticatedActor, handle: string, username: string): Promise<void> {
      const row = await load(handle);
      const member = await userByHandle(username);
      const current = await orgs.role(row.id, member.id);
      if (current === undefined) throw notFound('member_not_found', `${member.username} is not a member of "${row.handle}".`);
      const leaving = member.id === actor.user.id;
      if (!leaving) await requireRole(actor, row, (mine) => orgRules.manageMember(mine, current), `Removing a ${current}`);
      const outcome = await orgs.removeMember(
        row.id,
        member.id,
        audit(actor, row.id, leaving ? 'org.leave' : 'org.remove', `${member.username}:${current}`, null),
      );
      if (outcome === 'not_member') throw notFound('member_not_found', `${member.username} is not a member of "${row.handle}".`);
      if (outcome === 'last_owner')
        throw conflict('last_owner', `${member.username} is the last owner of "${row.handle}"; make another member an owner first.`);
      deps.membershipChanged?.(member.id);
    },

    /** Membership and role changes, newest first: for members. */
    async history(actor: Actor, handle: string) {
      const row = await load(handle);
      await requireRole(actor, row, (role) => role !== undefined, 'Seeing the history');
      return (await orgs.history(row.id, 200)).map((h) => ({
        action: h.action,
        actor: h.actor,
        from: h.from_value,
        to: h.to_value,
        at: toIso(h.created_at),
      }));
    },
  };
}

export type OrganisationService = ReturnType<typeof organisationService>;
