import type { NameAllowanceRow, NameAllowancesRepository } from '../../db/repositories/name-allowances.js';
import type { HeldName, NamesRepository } from '../../db/repositories/names.js';
import { newId } from '../../lib/ids.js';
import { nowIso, toIso } from '../../lib/time.js';
import { requireAdminSession, type Actor } from '../actor.js';
import { conflict, notFound, validationFailed } from '../errors.js';
import { judgeName, nameIndex } from '@skill-registry/rules/names/similarity';
import { ALLOWANCE_REASON_MAX } from '@skill-registry/rules/names/allowances';

/**
 * What a new name is: a skill's unscoped slug (compared with the other slugs), or a handle (an account's username
 * or an organisation's handle, which share one namespace and are compared with each other).
 */
export type NameKind = 'skill' | 'handle';

/** An administrator's allowance of a name the look-alike rules would refuse. */
export interface NameAllowance {
  name: string;
  reason: string;
  granted_by: string | null;
  created_at: string;
}

/** Any slug or handle the registry can hold: lower-case letters, digits, '-' and '_'. */
const ALLOWABLE_NAME = /^[a-z0-9][a-z0-9_-]{0,99}$/;

function toAllowance(row: NameAllowanceRow): NameAllowance {
  return { name: row.name, reason: row.reason, granted_by: row.granted_by, created_at: toIso(row.created_at) };
}

function allowableName(raw: string): string {
  const name = raw.trim().toLowerCase();
  if (!ALLOWABLE_NAME.test(name)) {
    throw validationFailed([{ field: 'name', message: 'a skill slug or handle: 1 to 100 lower-case letters, digits, "-" and "_"' }]);
  }
  return name;
}

export function nameService(deps: { names: NamesRepository; allowances: NameAllowancesRepository }) {
  const { names, allowances } = deps;

  const heldNames = (kind: NameKind): Promise<HeldName[]> => (kind === 'skill' ? names.skillSlugs() : names.handles());

  return {
    /**
     * Refuses a new name that is reserved (409 `name_reserved`) or looks like one held by someone else (409
     * `name_too_similar`, naming it), unless an administrator allowed it. `ownerId` is who will hold it (the skill's
     * owner, the organisation's creator); null for a new account, which holds nothing yet. Names `ownerId` already
     * holds never count against it. A name identical to a held one is left to the caller's own "taken" answer.
     */
    async checkNewName(kind: NameKind, name: string, ownerId: string | null): Promise<void> {
      if (await allowances.isAllowed(name.toLowerCase())) return;
      const held = await heldNames(kind);
      const index = nameIndex(held.map((h) => ({ name: h.name, ownerId: h.owner_id, downloads: h.downloads, published: h.published })));
      const refusal = judgeName(name, index, ownerId);
      if (refusal === null) return;
      const what = kind === 'skill' ? 'slug' : 'name';
      const detail = `${refusal.why} Choose another ${what}, or ask an administrator to allow "${name}" if it is yours to use.`;
      throw refusal.code === 'name_reserved' ? conflict('name_reserved', detail) : conflict('name_too_similar', detail);
    },

    async listAllowances(actor: Actor, page: { page: number; pageSize: number }): Promise<{ items: NameAllowance[]; total: number }> {
      requireAdminSession(actor);
      const { rows, total } = await allowances.list(page.pageSize, (page.page - 1) * page.pageSize);
      return { items: rows.map(toAllowance), total };
    },

    /** Allows `name` past the look-alike and reserved-word rules, with the reason recorded here and in the audit trail. */
    async grantAllowance(actor: Actor, input: { name: string; reason: string }): Promise<NameAllowance> {
      requireAdminSession(actor);
      const name = allowableName(input.name);
      const reason = input.reason.trim();
      if (reason === '') throw validationFailed([{ field: 'reason', message: 'say why the name is allowed' }]);
      if (reason.length > ALLOWANCE_REASON_MAX) {
        throw validationFailed([{ field: 'reason', message: `must be at most ${ALLOWANCE_REASON_MAX} characters` }]);
      }
      const now = nowIso();
      const row = { name, reason, granted_by: actor.user.id, created_at: now };
      await allowances.grant(row, {
        id: newId(),
        actor_id: row.granted_by,
        action: 'name.allow',
        target_type: 'name',
        target_id: name,
        from_value: null,
        to_value: 'allowed',
        reason,
        created_at: now,
      });
      return toAllowance(row);
    },

    async withdrawAllowance(actor: Actor, rawName: string): Promise<void> {
      requireAdminSession(actor);
      const name = rawName.trim().toLowerCase();
      const withdrawn = await allowances.delete(name, {
        id: newId(),
        actor_id: actor.user.id,
        action: 'name.disallow',
        target_type: 'name',
        target_id: name,
        from_value: 'allowed',
        to_value: null,
        reason: null,
        created_at: nowIso(),
      });
      if (!withdrawn) throw notFound('name_allowance_not_found', `No allowance for the name "${name}".`);
    },
  };
}

export type NameService = ReturnType<typeof nameService>;
