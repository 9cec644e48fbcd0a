import type { SkillRecordRow } from '../../db/repositories/skills.js';
import type { Arrival, TransferRow, TransfersRepository } from '../../db/repositories/transfers.js';
import type { UsersRepository } from '../../db/repositories/users.js';
import { looksLikeId, newId } from '../../lib/ids.js';
import { addDays, nowIso, toIso } from '../../lib/time.js';
import { checkSlug } from '@skill-registry/rules/skill-fields';
import { isAdminSession, requireAdminSession, type Actor, type AuthenticatedActor } from '../actor.js';
import { conflict, forbidden, notFound } from '../errors.js';
import { orgRules, type OrgRole } from '../orgs/roles.js';
import { bareSlug, type SkillService } from './skills.js';
import { canSee, orgRoleFor } from './visibility.js';

export interface Transfer {
  id: string;
  skill: string;
  to: string;
  new_name: string;
  offered_by: string | null;
  created_at: string;
  expires_at: string;
}

/**
 * Moving skills: an owner offers a skill to a user or an organisation, which accepts (or lets the offer expire); the
 * skill moves with its id, versions, statistics and feedback. A skill in a scope takes the receiver's scope; an unscoped
 * one stays unscoped. Renames move a skill to a new slug in its scope. The old name keeps leading to the skill
 * (`whereNow`) until an administrator gives it away.
 */
export function transferService(deps: {
  transfers: TransfersRepository;
  users: UsersRepository;
  skills: SkillService;
  findOrg: (handle: string) => Promise<{ id: string; handle: string } | undefined>;
  offerDays: number;
  /** Refuses a new unscoped slug that is reserved or looks like another owner's. */
  checkNewName?: (kind: 'skill', name: string, ownerId: string) => Promise<void>;
}) {
  const { transfers, skills } = deps;

  const audit = (actor: Actor, skillId: string, action: string, from: string | null, to: string | null) => ({
    id: newId(),
    actor_id: actor.kind === 'anonymous' ? null : actor.user.id,
    action,
    target_type: 'skill',
    target_id: skillId,
    from_value: from,
    to_value: to,
    reason: null,
    created_at: nowIso(),
  });

  /** Offers and renames are the owner's: the user, an owner or admin of the organisation, or an administrator's session. */
  async function ownedSkill(actor: Actor, ref: string): Promise<SkillRecordRow> {
    const row = await skills.manageable(actor, ref);
    if (row.org_id !== null && !orgRules.administer(orgRoleFor(actor, row)) && !isAdminSession(actor)) {
      throw forbidden('org_role_required', `Only owners and admins of "@${row.scope ?? ''}" can move or rename "${row.slug}".`);
    }
    return row;
  }

  /** The whole name a skill (by its whole name now) takes in `scope` under `slug`: a scoped one moves scope, an unscoped one stays so. */
  function newName(fullName: string, scope: string | null, slug: string | null): string {
    const bare = slug ?? bareSlug(fullName);
    return fullName.startsWith('@') ? `@${scope ?? fullName.slice(1, fullName.indexOf('/'))}/${bare}` : bare;
  }

  function view(row: TransferRow): Transfer {
    return {
      id: row.id,
      skill: row.skill_name,
      to: row.to_handle,
      new_name: newName(row.skill_name, row.to_handle, row.new_slug),
      offered_by: row.offered_by_username,
      created_at: toIso(row.created_at),
      expires_at: toIso(row.expires_at),
    };
  }

  /** Whether the caller receives for this offer: the user it is made to, or an owner or admin of the organisation. */
  function receives(actor: AuthenticatedActor, offer: TransferRow): boolean {
    if (offer.to_user_id !== null) return offer.to_user_id === actor.user.id;
    return orgRules.administer(actor.user.orgs?.get(offer.to_org_id ?? ''));
  }

  async function findOpen(id: string): Promise<TransferRow> {
    const offer = await transfers.find(id);
    if (offer === undefined || toIso(offer.expires_at) <= nowIso()) throw notFound('transfer_not_found', `No open transfer offer ${id}.`);
    return offer;
  }

  return {
    async offer(actor: AuthenticatedActor, ref: string, input: { to: string; slug?: string | undefined }): Promise<Transfer> {
      const row = await ownedSkill(actor, ref);
      const handle = input.to.trim().toLowerCase().replace(/^@/, '');
      const slug = input.slug === undefined ? null : checkSlug(input.slug);
      const user = await deps.users.findByUsername(handle);
      const org = user === undefined ? await deps.findOrg(handle) : undefined;
      if (user === undefined && org === undefined) throw notFound('user_not_found', `No user or organisation "${handle}".`);
      const current = row.org_id ?? row.owner_id;
      if ((user?.id ?? org?.id) === current && slug === null) {
        throw conflict('already_owner', `"${row.slug}" already belongs to ${handle}; rename it instead to change its slug.`);
      }
      const now = nowIso();
      const offer = {
        id: newId(),
        skill_id: row.id,
        to_user_id: user?.id ?? null,
        to_org_id: org?.id ?? null,
        new_slug: slug,
        offered_by: actor.user.id,
        created_at: now,
        expires_at: addDays(now, deps.offerDays),
      };
      await transfers.offer(offer, audit(actor, row.id, 'skill.transfer.offer', row.slug, newName(row.slug, handle, slug)));
      return view((await transfers.find(offer.id))!);
    },

    /** Open offers the caller may answer: to them, or to organisations they own or administer. */
    async received(actor: AuthenticatedActor): Promise<Transfer[]> {
      const orgIds = [...(actor.user.orgs ?? new Map<string, OrgRole>())].filter(([, role]) => orgRules.administer(role)).map(([id]) => id);
      const rows = await transfers.open({ userId: actor.user.id, orgIds }, nowIso());
      return rows.map(view);
    },

    /** Open offers the caller made, of any skill. */
    async sent(actor: AuthenticatedActor): Promise<Transfer[]> {
      return (await transfers.open({ offeredBy: actor.user.id }, nowIso())).map(view);
    },

    /** The open offer of a skill, for whoever manages it. */
    async ofSkill(actor: Actor, ref: string): Promise<Transfer[]> {
      const row = await skills.manageable(actor, ref);
      return (await transfers.open({ skillId: row.id }, nowIso())).map(view);
    },

    async accept(actor: AuthenticatedActor, id: string): Promise<void> {
      const offer = await findOpen(id);
      if (!receives(actor, offer))
        throw forbidden('not_receiver', `Transfer ${id} is offered to ${offer.to_handle}; its owners and admins answer it.`);
      const row = await skills.find(offer.skill_id);
      if (row === undefined) throw notFound('transfer_not_found', `No open transfer offer ${id}.`);
      const name = newName(row.slug, offer.to_handle, offer.new_slug);
      if (row.scope === null && name !== row.slug) await deps.checkNewName?.('skill', name, offer.to_org_id ?? actor.user.id);
      const arrival: Arrival = {
        slug: name,
        scope: row.scope === null ? null : offer.to_handle,
        org_id: offer.to_org_id,
        owner_id: offer.to_user_id ?? actor.user.id,
        // Only an organisation's skill can be private: one given to a user becomes public.
        private: offer.to_org_id === null ? 0 : row.private,
      };
      const now = nowIso();
      const outcome = await transfers.accept(
        id,
        row.id,
        row.slug,
        arrival,
        now,
        audit(actor, row.id, 'skill.transfer', `${row.org_id ?? row.owner_id}:${row.slug}`, `${offer.to_handle}:${name}`),
      );
      if (outcome === 'gone') throw notFound('transfer_not_found', `Transfer ${id} was answered or withdrawn meanwhile.`);
      if (outcome === 'name_taken')
        throw conflict('slug_taken', `"${name}" is taken in its new place; the offer stays open: ask for another slug.`);
      skills.changed(row.id);
    },

    async decline(actor: AuthenticatedActor, id: string): Promise<void> {
      const offer = await findOpen(id);
      if (!receives(actor, offer))
        throw forbidden('not_receiver', `Transfer ${id} is offered to ${offer.to_handle}; its owners and admins answer it.`);
      if (!(await transfers.withdraw(id, audit(actor, offer.skill_id, 'skill.transfer.decline', offer.skill_name, offer.to_handle))))
        throw notFound('transfer_not_found', `Transfer ${id} was answered or withdrawn meanwhile.`);
    },

    /** The offering side takes an offer back. */
    async withdraw(actor: AuthenticatedActor, id: string): Promise<void> {
      const offer = await findOpen(id);
      await ownedSkill(actor, offer.skill_id);
      if (!(await transfers.withdraw(id, audit(actor, offer.skill_id, 'skill.transfer.withdraw', offer.skill_name, offer.to_handle))))
        throw notFound('transfer_not_found', `Transfer ${id} was answered or withdrawn meanwhile.`);
    },

    /** A new slug in the skill's scope; the old name keeps leading to it. */
    async rename(actor: AuthenticatedActor, ref: string, input: { slug: string }) {
      const row = await ownedSkill(actor, ref);
      const slug = checkSlug(input.slug);
      const name = newName(row.slug, null, slug);
      if (name === row.slug) return skills.get(actor, row.id);
      if (row.scope === null) await deps.checkNewName?.('skill', name, row.org_id ?? row.owner_id);
      if ((await skills.find(name)) !== undefined) throw conflict('slug_taken', `The name "${name}" is taken; choose another.`);
      const outcome = await transfers.rename(row.id, row.slug, name, nowIso(), audit(actor, row.id, 'skill.rename', row.slug, name));
      if (outcome === 'name_taken') throw conflict('slug_taken', `The name "${name}" is taken; choose another.`);
      skills.changed(row.id);
      return skills.get(actor, row.id);
    },

    /**
     * Where a skill known by an old name lives now: its whole name, when the caller may see it; undefined otherwise
     * (then the old name answers as an unknown one).
     */
    async whereNow(actor: Actor, ref: string): Promise<string | undefined> {
      if (looksLikeId(ref)) return undefined;
      const id = await transfers.aliasOf(ref);
      if (id === undefined) return undefined;
      const row = await skills.find(id);
      return row !== undefined && canSee(actor, row) ? row.slug : undefined;
    },

    /** Whether a skill's old name holds `name`: it may not be taken until an administrator releases it. */
    async retired(name: string): Promise<boolean> {
      return (await transfers.aliasOf(name)) !== undefined;
    },

    async aliases(actor: Actor, ref: string): Promise<{ name: string; until: string }[]> {
      const row = await skills.visible(actor, ref);
      return (await transfers.aliasesOf(row.id)).map((a) => ({ name: a.name, until: toIso(a.created_at) }));
    },

    /** An administrator gives an old name away: it no longer leads to the skill, and may be taken. */
    async release(actor: Actor, name: string): Promise<void> {
      requireAdminSession(actor);
      const id = await transfers.aliasOf(name);
      if (id === undefined || !(await transfers.releaseAlias(name, audit(actor, id, 'skill.alias.release', name, null))))
        throw notFound('alias_not_found', `No skill had the name "${name}".`);
    },
  };
}

export type TransferService = ReturnType<typeof transferService>;
