import type { Kysely } from 'kysely';
import type SQLite from 'better-sqlite3';
import type { Insertable } from 'kysely';
import type { ApiKeysTable, Database, Role } from '../schema.js';

/** A credential row joined with the user it belongs to: what one request's authentication needs. */
export interface CredentialOwner {
  credential_id: string;
  user_id: string;
  username: string;
  role: Role;
  disabled: number;
  expires_at: Date | string | null;
}

export interface ApiKeyOwner extends CredentialOwner {
  scopes: string;
  revoked_at: Date | string | null;
  last_used_at: Date | string | null;
}

export function sessionsRepository(db: Kysely<Database>) {
  return {
    async insert(row: { id: string; user_id: string; token_hash: string; created_at: string; expires_at: string }): Promise<void> {
      await db.insertInto('sessions').values(row).execute();
    },

    findByHash(tokenHash: string): Promise<CredentialOwner | undefined> {
      return db
        .selectFrom('sessions as s')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .select(['s.id as credential_id', 'u.id as user_id', 'u.username', 'u.role', 'u.disabled', 's.expires_at'])
        .where('s.token_hash', '=', tokenHash)
        .executeTakeFirst();
    },

    async delete(id: string): Promise<void> {
      await db.deleteFrom('sessions').where('id', '=', id).execute();
    },

    async deleteForUser(userId: string): Promise<void> {
      await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
    },
  };
}

export function apiKeysRepository(db: Kysely<Database>, sqlite: SQLite.Database | null) {
  return {
    findByHash(keyHash: string): Promise<ApiKeyOwner | undefined> {
      return db
        .selectFrom('api_keys as k')
        .innerJoin('users as u', 'u.id', 'k.user_id')
        .select([
          'k.id as credential_id',
          'u.id as user_id',
          'u.username',
          'u.role',
          'u.disabled',
          'k.expires_at',
          'k.scopes',
          'k.revoked_at',
          'k.last_used_at',
        ])
        .where('k.key_hash', '=', keyHash)
        .executeTakeFirst();
    },

    listActive(userId: string) {
      return db
        .selectFrom('api_keys')
        .select(['id', 'name', 'prefix', 'scopes', 'created_at', 'last_used_at', 'expires_at'])
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
    },

    /**
     * Inserts a key unless its owner already holds `max` live (unrevoked) keys; false then. Concurrent inserts for
     * one owner take turns, so together they never pass `max`: on PostgreSQL each locks the owner's row first; on
     * SQLite every transaction begins IMMEDIATE, holding the write lock from the count to the insert.
     */
    async insertWithinLimit(row: Insertable<ApiKeysTable>, max: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        if (sqlite === null) {
          await trx.selectFrom('users').select('id').where('id', '=', row.user_id).forUpdate().executeTakeFirst();
        }
        const live = await trx
          .selectFrom('api_keys')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', row.user_id)
          .where('revoked_at', 'is', null)
          .executeTakeFirstOrThrow();
        if (live.n >= max) return false;
        await trx.insertInto('api_keys').values(row).execute();
        return true;
      });
    },

    /** Revokes one of the user's live keys; false when there is no such live key. */
    async revoke(id: string, userId: string, at: string): Promise<boolean> {
      const result = await db
        .updateTable('api_keys')
        .set({ revoked_at: at })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async touch(id: string, at: string): Promise<void> {
      await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
    },
  };
}

export type SessionsRepository = ReturnType<typeof sessionsRepository>;
export type ApiKeysRepository = ReturnType<typeof apiKeysRepository>;
