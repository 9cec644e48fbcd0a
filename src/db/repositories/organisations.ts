import { sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import type { DialectName } from '../dialect.js';
import type { AdminAuditTable, Database, OrgRole } from '../schema.js';

/** A timestamp as read: a Date from PostgreSQL, the stored ISO string from SQLite. */
type Timestamp = Date | string;
import { isUniqueViolation } from './unique-violation.js';

export type { OrgRole };
type Audit = Insertable<AdminAuditTable>;

export interface OrganisationRow {
  id: string;
  handle: string;
  display_name: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MemberRow {
  user_id: string;
  username: string;
  role: OrgRole;
  created_at: Timestamp;
}

export interface InvitationRow {
  id: string;
  org_id: string;
  org_handle: string;
  user_id: string;
  username: string;
  role: OrgRole;
  invited_by_username: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
}

/** Why a change of members was not made: it would leave the organisation without an owner, or the member is gone. */
export type MemberChange = 'changed' | 'last_owner' | 'not_member';

const ORG_COLUMNS = ['o.id', 'o.handle', 'o.display_name', 'o.created_at', 'o.updated_at'] as const;

export function organisationsRepository(db: Kysely<Database>, dialect: DialectName) {
  const invitations = (executor: Kysely<Database> | Transaction<Database>) =>
    executor
      .selectFrom('org_invitations as i')
      .innerJoin('organisations as o', 'o.id', 'i.org_id')
      .innerJoin('users as u', 'u.id', 'i.user_id')
      .leftJoin('users as b', 'b.id', 'i.invited_by')
      .select([
        'i.id',
        'i.org_id',
        'o.handle as org_handle',
        'i.user_id',
        'u.username',
        'i.role',
        'b.username as invited_by_username',
        'i.created_at',
        'i.expires_at',
      ]);

  /** Owners left after the change; PostgreSQL locks the members' rows so two changes at once cannot both remove the last. */
  async function ownersLeft(trx: Transaction<Database>, orgId: string, without: string): Promise<number> {
    let query = trx.selectFrom('org_members').select('user_id').where('org_id', '=', orgId).where('role', '=', 'owner');
    // SQLite runs one write transaction at a time; PostgreSQL needs the rows locked.
    if (dialect === 'postgres') query = query.forUpdate();
    const owners = await query.execute();
    return owners.filter((o) => o.user_id !== without).length;
  }

  return {
    findByHandle(handle: string): Promise<OrganisationRow | undefined> {
      return db.selectFrom('organisations as o').select(ORG_COLUMNS).where('o.handle', '=', handle).executeTakeFirst();
    },

    findById(id: string): Promise<OrganisationRow | undefined> {
      return db.selectFrom('organisations as o').select(ORG_COLUMNS).where('o.id', '=', id).executeTakeFirst();
    },

    /**
     * Creates the organisation with its first owner; 'handle_taken', writing nothing, when an organisation or a user
     * holds the handle (one namespace: the user check runs inside the transaction that inserts).
     */
    async create(
      org: OrganisationRow & { created_at: string; updated_at: string },
      ownerId: string,
      audit: Audit,
    ): Promise<'created' | 'handle_taken'> {
      try {
        return await db.transaction().execute(async (trx) => {
          const user = await trx.selectFrom('users').select('id').where('username', '=', org.handle).executeTakeFirst();
          if (user !== undefined) return 'handle_taken' as const;
          await trx.insertInto('organisations').values(org).execute();
          await trx
            .insertInto('org_members')
            .values({ org_id: org.id, user_id: ownerId, role: 'owner', created_at: org.created_at })
            .execute();
          await trx.insertInto('admin_audit').values(audit).execute();
          return 'created' as const;
        });
      } catch (error) {
        if (isUniqueViolation(error)) return 'handle_taken';
        throw error;
      }
    },

    async updateDisplayName(id: string, displayName: string, now: string): Promise<void> {
      await db.updateTable('organisations').set({ display_name: displayName, updated_at: now }).where('id', '=', id).execute();
    },

    /** Deletes the organisation unless it owns skills: 'owns_skills' then, and nothing changes. */
    async delete(id: string, audit: Audit): Promise<'deleted' | 'owns_skills'> {
      return db.transaction().execute(async (trx) => {
        const owned = await trx.selectFrom('skills').select('id').where('org_id', '=', id).executeTakeFirst();
        if (owned !== undefined) return 'owns_skills' as const;
        await trx.deleteFrom('organisations').where('id', '=', id).execute();
        await trx.insertInto('admin_audit').values(audit).execute();
        return 'deleted' as const;
      });
    },

    async role(orgId: string, userId: string): Promise<OrgRole | undefined> {
      const row = await db
        .selectFrom('org_members')
        .select('role')
        .where('org_id', '=', orgId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row?.role;
    },

    /** The organisations a user belongs to, with the user's role in each, by handle. */
    membershipsOf(userId: string): Promise<{ org_id: string; handle: string; display_name: string; role: OrgRole }[]> {
      return db
        .selectFrom('org_members as m')
        .innerJoin('organisations as o', 'o.id', 'm.org_id')
        .select(['m.org_id', 'o.handle', 'o.display_name', 'm.role'])
        .where('m.user_id', '=', userId)
        .orderBy('o.handle')
        .execute();
    },

    members(orgId: string): Promise<MemberRow[]> {
      return db
        .selectFrom('org_members as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .select(['m.user_id', 'u.username', 'm.role', 'm.created_at'])
        .where('m.org_id', '=', orgId)
        .orderBy('u.username')
        .execute();
    },

    /** Changes a member's role; never leaves the organisation without an owner. */
    async setRole(orgId: string, userId: string, role: OrgRole, audit: Audit): Promise<MemberChange> {
      return db.transaction().execute(async (trx) => {
        const current = await trx
          .selectFrom('org_members')
          .select('role')
          .where('org_id', '=', orgId)
          .where('user_id', '=', userId)
          .executeTakeFirst();
        if (current === undefined) return 'not_member' as const;
        if (current.role === 'owner' && role !== 'owner' && (await ownersLeft(trx, orgId, userId)) === 0) return 'last_owner' as const;
        await trx.updateTable('org_members').set({ role }).where('org_id', '=', orgId).where('user_id', '=', userId).execute();
        await trx.insertInto('admin_audit').values(audit).execute();
        return 'changed' as const;
      });
    },

    /** Removes a member (or a member leaves); never the last owner. */
    async removeMember(orgId: string, userId: string, audit: Audit): Promise<MemberChange> {
      return db.transaction().execute(async (trx) => {
        const current = await trx
          .selectFrom('org_members')
          .select('role')
          .where('org_id', '=', orgId)
          .where('user_id', '=', userId)
          .executeTakeFirst();
        if (current === undefined) return 'not_member' as const;
        if (current.role === 'owner' && (await ownersLeft(trx, orgId, userId)) === 0) return 'last_owner' as const;
        await trx.deleteFrom('org_members').where('org_id', '=', orgId).where('user_id', '=', userId).execute();
        await trx.insertInto('admin_audit').values(audit).execute();
        return 'changed' as const;
      });
    },

    /** Invites a user (replacing an invitation still open for them); 'member' when they already belong. */
    async invite(invitation: Insertable<Database['org_invitations']>, audit: Audit): Promise<'invited' | 'member'> {
      return db.transaction().execute(async (trx) => {
        const member = await trx
          .selectFrom('org_members')
          .select('user_id')
          .where('org_id', '=', invitation.org_id)
          .where('user_id', '=', invitation.user_id)
          .executeTakeFirst();
        if (member !== undefined) return 'member' as const;
        await trx.deleteFrom('org_invitations').where('org_id', '=', invitation.org_id).where('user_id', '=', invitation.user_id).execute();
        await trx.insertInto('org_invitations').values(invitation).execute();
        await trx.insertInto('admin_audit').values(audit).execute();
        return 'invited' as const;
      });
    },

    findInvitation(id: string): Promise<InvitationRow | undefined> {
      return invitations(db).where('i.id', '=', id).executeTakeFirst();
    },

    /** Open invitations (not expired at `now`) of an organisation, or to a user. */
    openInvitations(by: { orgId: string } | { userId: string }, now: string): Promise<InvitationRow[]> {
      const query = invitations(db).where('i.expires_at', '>', now).orderBy('i.created_at', 'desc').orderBy('i.id');
      return ('orgId' in by ? query.where('i.org_id', '=', by.orgId) : query.where('i.user_id', '=', by.userId)).execute();
    },

    /**
     * Answers an invitation: accepting makes the invitee a member with its role; either way the invitation is gone.
     * 'gone' when it was answered, withdrawn or expired meanwhile.
     */
    async answer(id: string, accept: boolean, now: string, audit: Audit): Promise<'answered' | 'gone'> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('org_invitations')
          .selectAll()
          .where('id', '=', id)
          .where('expires_at', '>', now)
          .executeTakeFirst();
        const removed = await trx.deleteFrom('org_invitations').where('id', '=', id).executeTakeFirst();
        if (row === undefined || Number(removed.numDeletedRows) === 0) return 'gone' as const;
        if (accept) {
          await trx
            .insertInto('org_members')
            .values({ org_id: row.org_id, user_id: row.user_id, role: row.role, created_at: now })
            .onConflict((oc) => oc.columns(['org_id', 'user_id']).doNothing())
            .execute();
        }
        await trx.insertInto('admin_audit').values(audit).execute();
        return 'answered' as const;
      });
    },

    async withdraw(id: string, audit: Audit): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const removed = await trx.deleteFrom('org_invitations').where('id', '=', id).executeTakeFirst();
        if (Number(removed.numDeletedRows) === 0) return false;
        await trx.insertInto('admin_audit').values(audit).execute();
        return true;
      });
    },

    /** The membership changes recorded for an organisation, newest first. */
    history(orgId: string, limit: number) {
      return db
        .selectFrom('admin_audit as a')
        .leftJoin('users as u', 'u.id', 'a.actor_id')
        .select(['a.id', 'a.action', 'u.username as actor', 'a.from_value', 'a.to_value', 'a.reason', 'a.created_at'])
        .where('a.target_type', '=', 'organisation')
        .where('a.target_id', '=', orgId)
        .orderBy('a.created_at', 'desc')
        .orderBy(sql`a.id`, 'desc')
        .limit(limit)
        .execute();
    },
  };
}

export type OrganisationsRepository = ReturnType<typeof organisationsRepository>;
