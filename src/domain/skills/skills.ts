import type { Highlights } from '../../search/highlights.js';
import type { SkillChangesRepository } from '../../db/repositories/skill-changes.js';
import type { NewSkill, SkillRecordRow, SkillsRepository, SkillUpdate } from '../../db/repositories/skills.js';
import { looksLikeId, newId } from '../../lib/ids.js';
import type { Same } from '../../lib/same-type.js';
import { nowIso, toIso } from '../../lib/time.js';
import { isAdminSession, requireAdminSession, type Actor, type AuthenticatedActor } from '../actor.js';
import { badRequest, conflict, forbidden, notFound, validationFailed, type AppError } from '../errors.js';
import {
  CATEGORY_MAX,
  DESCRIPTION_MAX,
  checkName,
  checkSlug,
  normaliseTags,
  slugFromName,
  slugProblem,
} from '@skill-registry/rules/skill-fields';
import { parseTagFilter, searchWords } from './search-terms.js';
import { checkSource, type SourceType } from '@skill-registry/rules/source';
import { checkDisplayText } from '@skill-registry/rules/display-text';
import type { SkillStatus } from './statuses.js';
import { checkTransition } from './transitions.js';
import { publicCache } from './public-cache.js';
import { checkPublishable } from './quarantine.js';
import { CLEARED_BY_PUBLISHING, requireInstallableVersion } from './publishing.js';
import { checkDeclineReason, toReviewQueueItem, type ReviewQueueItem, type ReviewState } from './review.js';
import { indexOwner, skillSearch, withWithheld } from './skill-search.js';
import { orgRules } from '../orgs/roles.js';
import { canManage, canSee, orgRoleFor } from './visibility.js';

/** Who owns a skill: a user, or an organisation whose members manage it by their roles. */
export interface SkillOwner {
  kind: 'user' | 'organisation';
  id: string;
  /** The owner's handle (a username or an organisation's handle); kept under this name for clients that read it. */
  username: string;
  handle: string;
}

export interface Skill {
  id: string;
  /** The slug within the skill's scope (`pdf-tools` of `@acme/pdf-tools`). */
  slug: string;
  /** The handle of the user or organisation whose scope names the skill; null when unscoped. */
  scope: string | null;
  /** `pdf-tools`, or `@acme/pdf-tools` in a scope: what `:skillId` accepts besides the id. */
  full_name: string;
  name: string;
  description: string;
  category: string | null;
  tags: string[];
  status: SkillStatus;
  featured: boolean;
  source_type: SourceType | null;
  source_url: string | null;
  owner: SkillOwner;
  /** Seen only by the owning organisation's members (and administrators). */
  private: boolean;
  latest_version: string | null;
  downloads: number;
  created_at: string;
  updated_at: string;
  published_at: string | null;
  /** Hidden pending review of users' reports: shown only to its owner and administrators until they resolve them. */
  hidden: boolean;
  /** Every version is quarantined: nothing is installable although versions exist. */
  quarantined: boolean;
  /** A reviewer's decline of the draft, until its owner uploads a version or it is published. */
  declined: { reason: string; at: string } | null;
}

// The statuses and source types the domain knows are the ones the skills table stores.
true satisfies Same<SkillStatus, SkillRecordRow['status']>;
true satisfies Same<SourceType | null, SkillRecordRow['source_type']>;

export function toSkill(row: SkillRecordRow): Skill {
  return {
    id: row.id,
    slug: bareSlug(row.slug),
    scope: row.scope,
    full_name: row.slug,
    name: row.name,
    description: row.description,
    category: row.category,
    tags: JSON.parse(row.tags) as string[],
    status: row.status,
    featured: row.featured === 1,
    source_type: row.source_type,
    source_url: row.source_url,
    owner:
      row.org_id === null || row.org_handle === null
        ? { kind: 'user', id: row.owner_id, username: row.owner_username, handle: row.owner_username }
        : { kind: 'organisation', id: row.org_id, username: row.org_handle, handle: row.org_handle },
    private: row.private === 1,
    latest_version: row.latest_version,
    downloads: row.downloads,
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
    published_at: toIso(row.published_at),
    hidden: row.hidden_at !== null,
    quarantined: row.quarantined === 1,
    declined: row.declined_at === null || row.decline_reason === null ? null : { reason: row.decline_reason, at: toIso(row.declined_at) },
  };
}

export interface SkillInput {
  name: string;
  slug?: string;
  /** A handle the caller may publish in (its own username, or an organisation where it has a role); absent: unscoped. */
  scope?: string | null;
  /** Only for an organisation's skill: seen by its members alone. */
  private?: boolean;
  description?: string | null;
  category?: string | null;
  tags?: string[];
  source_type?: SourceType | null;
  source_url?: string | null;
}

export type SkillPatch = Partial<SkillInput>;

/** A search result: the skill, and where the query's words stand in its name and description. */
export interface SkillListItem extends Skill {
  highlights?: Highlights;
}

export interface SkillList {
  items: SkillListItem[];
  total: number;
  /** With a search: `partial` when no skill matched every word and the best partial matches were returned. */
  match?: 'full' | 'partial';
}

export type ListSort = 'latest' | 'downloads' | 'featured' | 'relevance';

export interface ListQuery {
  q?: string;
  category?: string;
  tags?: string;
  featured?: boolean;
  status?: SkillStatus | 'all';
  /** `relevance` only with `q`. */
  sort: ListSort;
  page: number;
  pageSize: number;
}

/** A description or category: trimmed, within `max`, and display text (a description may hold line breaks and tabs). */
function optionalText(value: string | null | undefined, field: string, max: number): string | null | undefined {
  if (value === undefined || value === null) return value;
  checkDisplayText(field, value, { multiline: field === 'description' });
  const trimmed = value.trim();
  if (trimmed.length > max) throw validationFailed([{ field, message: `must be at most ${max} characters` }]);
  return trimmed;
}

/** The slug of a skill's whole name: `pdf-tools` of `@acme/pdf-tools`, and of `pdf-tools`. */
export function bareSlug(fullName: string): string {
  return fullName.startsWith('@') ? fullName.slice(fullName.indexOf('/') + 1) : fullName;
}

function privateNeedsOrg(): AppError {
  return validationFailed([
    { field: 'private', message: "only an organisation's skill can be private: create it with an organisation's scope" },
  ]);
}

export function slugTaken(slug: string): AppError {
  return conflict('slug_taken', `The slug "${slug}" is taken; choose another.`);
}

/** How long a public answer may be reused; see publicCache for how changes clear it sooner. */
export const PUBLIC_CACHE_TTL_MS = 1000;

export function skillService(deps: {
  skills: SkillsRepository;
  /** The log of skill changes the search index follows. */
  skillChanges: SkillChangesRepository;
  /** Tells other nodes serving the same database that a skill changed (they then forget their cached answers). */
  announce?: (id: string) => void;
  /** Where a failure to bring the search index up to date is reported. */
  onSearchError?: (error: unknown) => void;
  /** Refuses a new slug that is reserved or looks like another owner's (src/domain/names). */
  checkNewName?: (kind: 'skill', name: string, ownerId: string) => Promise<void>;
  /** Whether a name is a moved or renamed skill's old name, which still leads there (domain/skills/transfers.ts). */
  retiredName?: (name: string) => Promise<boolean>;
  /** Finds an organisation by handle: the scopes skills may be created in besides the caller's own. */
  findOrg?: (handle: string) => Promise<{ id: string; handle: string } | undefined>;
}) {
  const { skills } = deps;
  const search = skillSearch(skills, deps.skillChanges);
  // Published skills and public pages are the same for every caller, and most traffic asks for them.
  const rowCache = publicCache<{ row: SkillRecordRow; skill: Skill } | undefined>({ ttlMs: PUBLIC_CACHE_TTL_MS, maxEntries: 10_000 });

  const listeners: (() => void)[] = [];
  /** Drops this node's cached public answers. */
  function forgetCached(): void {
    rowCache.clear();
    for (const listener of listeners) listener();
  }

  /** Reads a changed skill again for search; a failure is reported, never left unhandled. */
  function refreshSearch(id: string): void {
    search.refresh(id).catch((error: unknown) => deps.onSearchError?.(error));
  }

  /** Called after every write that can change what a skill or a list shows. */
  function changed(id: string): void {
    forgetCached();
    refreshSearch(id);
    deps.announce?.(id);
  }

  /** Another node changed a skill: this node forgets its cached answers and reads the skill again for search. */
  function changedElsewhere(id: string | undefined): void {
    forgetCached();
    if (id !== undefined) refreshSearch(id);
  }

  async function find(ref: string): Promise<SkillRecordRow | undefined> {
    return looksLikeId(ref) ? skills.findById(ref.toLowerCase()) : skills.findBySlug(ref);
  }

  /** Loads a skill the caller may see; anything hidden is indistinguishable from absent. */
  async function visible(actor: Actor, ref: string): Promise<SkillRecordRow> {
    const row = await find(ref);
    if (!row || !canSee(actor, row)) throw notFound('skill_not_found', `No skill "${ref}" is visible to you.`);
    return row;
  }

  async function visibleForReading(actor: Actor, ref: string): Promise<{ row: SkillRecordRow; skill: Skill }> {
    const key = looksLikeId(ref) ? ref.toLowerCase() : ref;
    const found = await rowCache.get(key, async () => {
      const row = await find(key);
      return row ? { row, skill: toSkill(row) } : undefined;
    });
    if (!found || !canSee(actor, found.row)) throw notFound('skill_not_found', `No skill "${ref}" is visible to you.`);
    return found;
  }

  /** Loads a skill for a change by its owner or an admin session: hidden is 404, visible but not yours is 403. */
  async function manageable(actor: Actor, ref: string): Promise<SkillRecordRow> {
    const row = await visible(actor, ref);
    if (!canManage(actor, row)) throw forbidden('not_owner', `Only the owner of "${row.slug}" or an administrator can change it.`);
    return row;
  }

  /**
   * Where a new skill is named and who owns it: unscoped and the caller's; in the caller's own scope; or in an
   * organisation's, owned by it, when the caller holds a role there (an administrator's session may use any).
   */
  async function scopeOf(
    actor: AuthenticatedActor,
    input: SkillInput,
  ): Promise<{ scope: string | null; orgId: string | null; private: boolean }> {
    const scope = input.scope?.trim().toLowerCase().replace(/^@/, '') || null;
    if (scope === null || scope === actor.user.username) {
      if (input.private === true) throw privateNeedsOrg();
      return { scope, orgId: null, private: false };
    }
    const org = await deps.findOrg?.(scope);
    if (org === undefined) {
      throw forbidden(
        'scope_not_allowed',
        `You cannot create skills in "@${scope}": it is neither your username nor an organisation you publish for.`,
      );
    }
    if (!orgRules.manageSkills(actor.user.orgs?.get(org.id)) && !isAdminSession(actor)) {
      throw forbidden('scope_not_allowed', `You are not a member of "@${org.handle}"; an owner or admin of it can invite you.`);
    }
    return { scope: org.handle, orgId: org.id, private: input.private === true };
  }

  /** Checks a new skill's fields and slug, and returns the row to insert with its tags. */
  async function prepare(
    actor: AuthenticatedActor,
    input: SkillInput,
  ): Promise<{ row: NewSkill & { id: string; slug: string; description: string }; tags: string[] }> {
    const name = checkName(input.name);
    let slug: string;
    if (input.slug !== undefined) {
      slug = checkSlug(input.slug);
    } else {
      slug = slugFromName(name);
      if (slugProblem(slug) !== null) {
        throw badRequest('invalid_slug', `No valid slug can be made from the name "${name}"; send a slug.`, [
          { field: 'slug', message: 'required when the name has no letters or digits to make one from' },
        ]);
      }
    }
    const description = optionalText(input.description, 'description', DESCRIPTION_MAX) ?? '';
    const category = optionalText(input.category, 'category', CATEGORY_MAX) || null;
    const tags = normaliseTags(input.tags ?? []);
    const source = checkSource({ source_type: input.source_type ?? null, source_url: input.source_url ?? null });
    const owner = await scopeOf(actor, input);
    // A scope is its owner's namespace: only unscoped slugs, which everyone shares, are checked for look-alikes.
    if (owner.scope === null) await deps.checkNewName?.('skill', slug, actor.user.id);
    const fullName = owner.scope === null ? slug : `@${owner.scope}/${slug}`;
    if (await skills.slugTaken(fullName)) throw slugTaken(fullName);
    if ((await deps.retiredName?.(fullName)) === true) {
      throw conflict(
        'name_retired',
        `"${fullName}" was the name of a skill that moved or was renamed, and still leads there; choose another, or ask an administrator to release it.`,
      );
    }
    const now = nowIso();
    return {
      row: {
        id: newId(),
        slug: fullName,
        scope: owner.scope,
        org_id: owner.orgId,
        private: owner.private ? 1 : 0,
        name,
        description,
        category,
        tags: JSON.stringify(tags),
        status: 'draft',
        featured: 0,
        source_type: source.source_type,
        source_url: source.source_url,
        owner_id: actor.user.id,
        latest_version: null,
        downloads: 0,
        created_at: now,
        updated_at: now,
        published_at: null,
      },
      tags,
    };
  }

  /** Makes an organisation's skill private or public again: its owners and admins (or an administrator's session). */
  async function setPrivate(actor: Actor, row: SkillRecordRow, value: boolean, now: string): Promise<void> {
    if (row.org_id === null) throw privateNeedsOrg();
    if (!orgRules.administer(orgRoleFor(actor, row)) && !isAdminSession(actor)) {
      throw forbidden('org_role_required', `Only owners and admins of "@${row.scope ?? ''}" can change who sees "${row.slug}".`);
    }
    await skills.updateAudited(row.id, { private: value ? 1 : 0, updated_at: now }, [
      {
        id: newId(),
        actor_id: actor.kind === 'anonymous' ? null : actor.user.id,
        action: 'skill.private',
        target_type: 'skill',
        target_id: row.id,
        from_value: String(row.private === 1),
        to_value: String(value),
        reason: null,
        created_at: now,
      },
    ]);
  }

  function reload(id: string): Promise<Skill> {
    return skills.findById(id).then((row) => {
      if (!row) throw notFound('skill_not_found', `Skill ${id} no longer exists.`);
      return toSkill(row);
    });
  }

  return {
    find,
    visible,
    manageable,
    changed,
    changedElsewhere,
    forgetCached,
    /** Looks once for skill changes other nodes made without telling this one (see skillSearch). */
    catchUpSearch: () => search.catchUp(),
    /** Downloads this node wrote, for the search index's totals (sort=downloads and the popularity boost). */
    downloaded(counts: ReadonlyMap<string, number>): void {
      search.downloaded(counts);
    },
    /** Resolves once the search index holds every skill; start-up waits for it before taking requests. */
    searchReady: search.ready,
    /** Registers a cache of answers derived from skills, to be cleared with the skill caches. */
    onChange(listener: () => void): void {
      listeners.push(listener);
    },

    async get(actor: Actor, ref: string): Promise<Skill> {
      // The same object for every caller until the entry expires, so its serialised form can be reused too.
      return (await visibleForReading(actor, ref)).skill;
    },

    /** Like `visible`, from the short-lived public cache: for reads only, never to decide a change. */
    async visibleForReading(actor: Actor, ref: string): Promise<SkillRecordRow> {
      return (await visibleForReading(actor, ref)).row;
    },

    prepare,

    async create(actor: AuthenticatedActor, input: SkillInput): Promise<Skill> {
      const { row, tags } = await prepare(actor, input);
      // Two creations racing for one slug: the unique index decides, and the loser gets the same answer.
      if ((await skills.insert(row, tags)) === 'slug_taken') throw slugTaken(row.slug);
      changed(row.id);
      return reload(row.id);
    },

    async update(actor: Actor, ref: string, patch: SkillPatch): Promise<Skill> {
      const row = await manageable(actor, ref);
      if (patch.slug !== undefined && patch.slug !== row.slug && patch.slug !== bareSlug(row.slug)) {
        throw badRequest('slug_immutable', `The slug of a skill cannot change (it is "${row.slug}"); create a new skill instead.`, [
          { field: 'slug', message: 'is immutable' },
        ]);
      }
      const changes: SkillUpdate = {};
      if (patch.name !== undefined) changes.name = checkName(patch.name);
      if (patch.description !== undefined) changes.description = optionalText(patch.description, 'description', DESCRIPTION_MAX) ?? '';
      if (patch.category !== undefined) changes.category = optionalText(patch.category, 'category', CATEGORY_MAX) || null;
      const tags = patch.tags !== undefined ? normaliseTags(patch.tags) : undefined;
      if (tags !== undefined) changes.tags = JSON.stringify(tags);
      if (patch.source_type !== undefined || patch.source_url !== undefined) {
        // The rule applies to the pair as it will be stored, so a one-sided change is checked against the other side.
        const source = checkSource({
          source_type: patch.source_type !== undefined ? patch.source_type : row.source_type,
          source_url: patch.source_url !== undefined ? patch.source_url : row.source_url,
        });
        changes.source_type = source.source_type;
        changes.source_url = source.source_url;
      }
      changes.updated_at = nowIso();
      if (patch.private !== undefined && (patch.private ? 1 : 0) !== row.private)
        await setPrivate(actor, row, patch.private, changes.updated_at);
      // A name people have seen (the skill was published) keeps its history: each rename goes to the audit trail.
      const rename =
        changes.name !== undefined && row.status !== 'draft'
          ? {
              id: newId(),
              actor_id: actor.kind === 'anonymous' ? null : actor.user.id,
              action: 'skill.name',
              target_type: 'skill',
              target_id: row.id,
              to_value: changes.name,
              reason: null,
              created_at: changes.updated_at,
            }
          : undefined;
      await skills.update(row.id, changes, tags, rename);
      changed(row.id);
      return reload(row.id);
    },

    async remove(actor: Actor, ref: string): Promise<void> {
      const row = await manageable(actor, ref);
      if (row.status !== 'draft') {
        throw conflict(
          'not_draft',
          `Only draft skills can be deleted; "${row.slug}" is ${row.status}. An administrator can deprecate it instead.`,
        );
      }
      if (!(await skills.deleteDraft(row.id))) {
        throw conflict('not_draft', `"${row.slug}" stopped being a draft while it was being deleted.`);
      }
      changed(row.id);
    },

    async list(actor: Actor, query: ListQuery) {
      // `status` is an admin-session privilege; everyone else sees published skills whatever they ask for.
      // Skills hidden pending review of reports, and quarantined ones, are left out, except for an admin session asking by status.
      let statuses: readonly string[] | 'all' = ['published'];
      if (isAdminSession(actor) && query.status !== undefined) statuses = withWithheld(query.status === 'all' ? 'all' : [query.status]);
      return listed(query, statuses, undefined);
    },

    /** The caller's own skills in every state, unless `status` narrows them. */
    async listMine(actor: AuthenticatedActor, query: ListQuery) {
      const owners = [actor.user.id, ...[...(actor.user.orgs?.keys() ?? [])].map((id) => indexOwner({ owner_id: '', org_id: id }))];
      return listed(query, withWithheld(query.status === undefined || query.status === 'all' ? 'all' : [query.status]), owners);
    },

    /** An organisation's skills: every state and private ones for its members and administrators, published for others. */
    async listOrg(actor: Actor, orgId: string, query: ListQuery) {
      const member = (actor.kind !== 'anonymous' && actor.user.orgs?.has(orgId) === true) || isAdminSession(actor);
      const statuses = member ? withWithheld(query.status === undefined || query.status === 'all' ? 'all' : [query.status]) : ['published'];
      return listed(query, statuses, [indexOwner({ owner_id: '', org_id: orgId })]);
    },

    /**
     * Moderation: an administrator's session only. Publishing needs a version to install (409
     * `no_installable_version` without one); publishing a quarantined skill needs `overrideQuarantine` and a reason,
     * both recorded in the audit trail. Publishing clears a reviewer's earlier decline.
     */
    async setStatus(actor: Actor, ref: string, to: SkillStatus, reason: string | undefined, overrideQuarantine = false): Promise<Skill> {
      requireAdminSession(actor);
      const row = await visible(actor, ref);
      checkTransition(row.status, to);
      const why = reason?.trim() || null;
      requireInstallableVersion(row, to);
      const overridden = checkPublishable(row, to, overrideQuarantine, why);
      const now = nowIso();
      const audit = {
        actor_id: actor.user.id,
        target_type: 'skill',
        target_id: row.id,
        reason: why,
        created_at: now,
      };
      const applied = await skills.updateAudited(
        row.id,
        { status: to, updated_at: now, ...(to === 'published' ? { published_at: now, ...CLEARED_BY_PUBLISHING } : {}) },
        [
          { ...audit, id: newId(), action: 'skill.status', from_value: row.status, to_value: to },
          ...(overridden ? [{ ...audit, id: newId(), action: 'skill.quarantine_override', from_value: 'quarantined', to_value: to }] : []),
        ],
        row.status,
        row.quarantined,
      );
      if (!applied)
        throw conflict('invalid_transition', `The status of "${row.slug}" changed while this request was made; reload and retry.`);
      changed(row.id);
      return reload(row.id);
    },

    /**
     * Review: an administrator's session declines a draft with a reason its owner reads. The draft stays a draft and
     * leaves the review queue (changes requested) until its owner uploads a version. Declining again replaces the
     * reason; every decline is kept in the audit trail.
     */
    async decline(actor: Actor, ref: string, reason: string): Promise<Skill> {
      requireAdminSession(actor);
      const why = checkDeclineReason(reason);
      const row = await visible(actor, ref);
      const notDraft = (status: string) =>
        conflict('not_draft', `Only drafts can be declined; "${row.slug}" is ${status}. An administrator can deprecate it instead.`);
      if (row.status !== 'draft') throw notDraft(row.status);
      const now = nowIso();
      const applied = await skills.updateAudited(
        row.id,
        { declined_at: now, decline_reason: why },
        [
          {
            id: newId(),
            actor_id: actor.user.id,
            action: 'skill.decline',
            target_type: 'skill',
            target_id: row.id,
            from_value: row.declined_at === null ? 'waiting' : 'changes_requested',
            to_value: 'changes_requested',
            reason: why,
            created_at: now,
          },
        ],
        'draft',
      );
      if (!applied) throw notDraft('no longer a draft');
      changed(row.id);
      return reload(row.id);
    },

    /** Review: the drafts in one state, riskiest first (see SkillsRepository.reviewQueue); an administrator's session only. */
    async reviewQueue(
      actor: Actor,
      query: { state: ReviewState; page: number; pageSize: number },
    ): Promise<{ items: ReviewQueueItem[]; total: number }> {
      requireAdminSession(actor);
      const { rows, total } = await skills.reviewQueue(query.state, query.pageSize, (query.page - 1) * query.pageSize);
      return { items: rows.map((row) => toReviewQueueItem(row, toSkill(row))), total };
    },

    /** Moderation: an administrator's session only. */
    async setFeatured(actor: Actor, ref: string, featured: boolean, reason: string | undefined): Promise<Skill> {
      requireAdminSession(actor);
      const row = await visible(actor, ref);
      if ((row.featured === 1) !== featured) {
        await skills.updateAudited(row.id, { featured: featured ? 1 : 0 }, [
          {
            id: newId(),
            actor_id: actor.user.id,
            action: 'skill.featured',
            target_type: 'skill',
            target_id: row.id,
            from_value: String(row.featured === 1),
            to_value: String(featured),
            reason: reason?.trim() || null,
            created_at: nowIso(),
          },
        ]);
        changed(row.id);
      }
      return reload(row.id);
    },
  };

  /**
   * Every list and search: the index filters, ranks and pages, and holds the rows it shows (kept in step with
   * the database as docs/api-decisions.md describes: at once on this node, within a second on the others).
   */
  async function listed(
    query: ListQuery,
    statuses: readonly string[] | 'all',
    ownerIds: readonly string[] | undefined,
  ): Promise<SkillList> {
    const searching = searchWords(query.q).length > 0;
    const answer = await search.search({
      text: searching ? (query.q ?? '') : '',
      statuses,
      ownerIds,
      category: query.category,
      tags: parseTagFilter(query.tags),
      featured: query.featured,
      sort: query.sort,
      offset: (query.page - 1) * query.pageSize,
      limit: query.pageSize,
    });
    const items = answer.hits.map(({ row, highlights }) => {
      const item: SkillListItem = toSkill(row);
      // Set on the record made here rather than spread into a copy of it: one object per result, not two.
      if (searching) item.highlights = highlights;
      return item;
    });
    return searching ? { items, total: answer.total, match: answer.match } : { items, total: answer.total };
  }
}

export type SkillService = ReturnType<typeof skillService>;
