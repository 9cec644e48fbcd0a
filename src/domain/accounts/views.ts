import type { Role, UserRow } from '../../db/schema.js';
import { toIso } from '../../lib/time.js';

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
