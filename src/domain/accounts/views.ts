import type { UserRow } from '../../db/repositories/users.js';
import type { Same } from '../../lib/same-type.js';
import { toIso } from '../../lib/time.js';
import type { Role } from '../actor.js';

// The roles the domain knows are the ones the users table stores.
true satisfies Same<Role, UserRow['role']>;

export interface User {
  id: string;
  username: string;
  email: string;
  role: Role;
  disabled: boolean;
  created_at: string;
  updated_at: string;
}

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    role: row.role,
    disabled: row.disabled === 1,
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}
