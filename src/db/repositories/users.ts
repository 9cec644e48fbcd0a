import { sql, type Kysely } from 'kysely';
import type { Database, NewUser, Role, UserRow, UserUpdate } from '../schema.js';
import type { DialectName } from '../dialect.js';
import { likeContains } from './like.js';
import { isUniqueViolation } from './unique-violation.js';

export type { UserRow, UserUpdate };

/** What inserting an account did: inserted it, or nothing because its username or its email is taken. */
export type UserInsert = 'inserted' | 'username_taken' | 'email_taken';

export interface UserListFilter {
  q?: string;
  role?: Role;
  disabled?: boolean;
  limit: number;
  offset: number;
}

export function usersRepository(db: Kysely<Database>, dialect: DialectName) {
  return {
    findById(id: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },

    findByUsername(username: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('username', '=', username.toLowerCase()).executeTakeFirst();
    },

    /** `login` is a username or an email; both compare case-insensitively. */
    findByLogin(login: string): Promise<UserRow | undefined> {
      const lowered = login.trim().toLowerCase();
      return db
        .selectFrom('users')
        .selectAll()
        .where((eb) => eb.or([eb('username', '=', lowered), eb(sql`lower(email)`, '=', lowered)]))
        .executeTakeFirst();
    },

    async emailTaken(email: string): Promise<boolean> {
      const row = await db
        .selectFrom('users')
        .select('id')
        .where(sql`lower(email)`, '=', email.toLowerCase())
        .executeTakeFirst();
      return row !== undefined;
    },

    /**
     * The unique indexes decide between two registrations racing for one name or one email. Usernames and
     * organisations' handles share one namespace: an organisation's handle is taken as a username is.
     */
    async insert(user: NewUser): Promise<UserInsert> {
      try {
        return await db.transaction().execute(async (trx) => {
          const org = await trx.selectFrom('organisations').select('id').where('handle', '=', user.username).executeTakeFirst();
          if (org !== undefined) return 'username_taken' as const;
          await trx.insertInto('users').values(user).execute();
          return 'inserted' as const;
        });
      } catch (error) {
        if (isUniqueViolation(error, 'username')) return 'username_taken';
        if (isUniqueViolation(error)) return 'email_taken';
        throw error;
      }
    },

    async update(id: string, changes: UserUpdate): Promise<void> {
      await db.updateTable('users').set(changes).where('id', '=', id).execute();
    },

    /**
     * Applies a change unless it would leave no enabled administrator. The active admin rows are locked
     * for the check (PostgreSQL `FOR UPDATE`; SQLite transactions already run one at a time), so two
     * admins demoting each other at the same moment cannot both succeed.
     */
    async updateKeepingAnAdmin(id: string, changes: UserUpdate): Promise<'updated' | 'last_admin'> {
      return db.transaction().execute(async (trx) => {
        let admins = trx.selectFrom('users').select('id').where('role', '=', 'admin').where('disabled', '=', 0);
        if (dialect === 'postgres') admins = admins.forUpdate();
        const active = (await admins.execute()).map((r) => r.id);
        const removesAdmin = changes.role === 'user' || changes.disabled === 1;
        if (removesAdmin && active.includes(id) && active.length <= 1) return 'last_admin';
        await trx.updateTable('users').set(changes).where('id', '=', id).execute();
        return 'updated';
      });
    },

    async list(filter: UserListFilter): Promise<{ rows: UserRow[]; total: number }> {
      let query = db.selectFrom('users');
      if (filter.q) {
        const pattern = likeContains(filter.q.toLowerCase());
        query = query.where((eb) =>
          eb.or([
            eb(sql`lower(username)`, 'like', sql`${pattern} escape '\\'`),
            eb(sql`lower(email)`, 'like', sql`${pattern} escape '\\'`),
          ]),
        );
      }
      if (filter.role) query = query.where('role', '=', filter.role);
      if (filter.disabled !== undefined) query = query.where('disabled', '=', filter.disabled ? 1 : 0);
      const [rows, count] = await Promise.all([
        query.selectAll().orderBy('created_at', 'asc').orderBy('id', 'asc').limit(filter.limit).offset(filter.offset).execute(),
        query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: count.n };
    },
  };
}

export type UsersRepository = ReturnType<typeof usersRepository>;
