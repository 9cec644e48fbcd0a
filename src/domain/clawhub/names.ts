import type { BareSlugMatch, ClawhubRepository } from '../../db/repositories/clawhub.js';
import type { Actor } from '../actor.js';
import { AppError, conflict, notFound } from '../errors.js';
import type { Skill, SkillService } from '../skills/skills.js';

/** One skill an ambiguous bare slug could mean, as ClawHub lists it. */
export interface SlugMatch {
  ownerHandle: string;
  slug: string;
  ref: string;
  url: string;
}

/**
 * A bare slug that names skills of several owners, none unscoped: the client is told which, as ClawHub tells it
 * (409 `AMBIGUOUS_SKILL_SLUG` with the matches), and asked to name the owner.
 */
export type AmbiguousSlug = AppError & { matches: SlugMatch[] };

export function ambiguousSlug(slug: string, matches: SlugMatch[]): AmbiguousSlug {
  const refs = matches.map((m) => m.ref).join(', ');
  const error = conflict(
    'ambiguous_skill_slug',
    `"${slug}" names skills of several owners (${refs}); name the owner as well, e.g. ${matches[0]?.ref ?? `owner/${slug}`}.`,
  );
  return Object.assign(error, { matches });
}

export function isAmbiguousSlug(error: unknown): error is AmbiguousSlug {
  return error instanceof AppError && error.code === 'ambiguous_skill_slug' && 'matches' in error;
}

export function skillNotFound(slug: string): AppError {
  return notFound('skill_not_found', `No skill "${slug}" is visible to you.`);
}

/** The handle a ClawHub owner is named by: lowercase, without a leading `@`. */
export function ownerHandleOf(raw: string | undefined | null): string | undefined {
  const handle = raw?.trim().toLowerCase().replace(/^@/, '');
  return handle === undefined || handle === '' ? undefined : handle;
}

/** The owner handle ClawHub shows for a skill: the scope of a scoped one, the owning user of an unscoped one. */
export function ownerOf(skill: Pick<Skill, 'scope' | 'owner'>): string {
  return skill.scope ?? skill.owner.handle;
}

/**
 * ClawHub names a skill by a bare slug, optionally with an owner handle; this registry by its whole name
 * (`pdf-tools`, `@acme/pdf-tools`). A bare slug is the unscoped skill of that slug, or the only scoped one the
 * caller may see; with several, the answer is AmbiguousSlug. With an owner handle `h`: `@h/<slug>`, or the unscoped
 * skill that user `h` owns. What the caller may not see is as absent (404), exactly as in /v1.
 */
export function skillNames(deps: {
  repository: ClawhubRepository;
  skills: SkillService;
  pageUrl: (fullName: string) => string;
  /** The whole name now of a skill that had this whole name before it moved or was renamed, when the caller may see it. */
  formerName?: (actor: Actor, name: string) => Promise<string | undefined>;
}) {
  /**
   * A skill by a name it had before a rename or a transfer, as /v1 follows old names: `owner/slug` as `@owner/slug`
   * or as the unscoped `slug` user owner had, a bare slug as the unscoped `slug`.
   */
  async function formerly(actor: Actor, slug: string, owner: string | undefined): Promise<Skill | undefined> {
    if (deps.formerName === undefined) return undefined;
    for (const old of owner === undefined ? [slug] : [`@${owner}/${slug}`, slug]) {
      const now = await deps.formerName(actor, old);
      if (now === undefined) continue;
      const skill = await deps.skills.get(actor, now);
      if (owner === undefined || old.startsWith('@') || skill.owner.handle.toLowerCase() === owner || ownerOf(skill) === owner)
        return skill;
    }
    return undefined;
  }

  async function visible(actor: Actor, matches: readonly BareSlugMatch[]): Promise<Skill[]> {
    const out: Skill[] = [];
    for (const match of matches) {
      try {
        out.push(await deps.skills.get(actor, match.id));
      } catch (error) {
        if (!(error instanceof AppError && error.status === 404)) throw error;
      }
    }
    return out;
  }

  return {
    /** The skill `slug` (with `ownerHandle`) names for the caller; 404 `skill_not_found`, 409 AmbiguousSlug. */
    async find(actor: Actor, slug: string, ownerHandle?: string): Promise<Skill> {
      if (slug === '' || slug.includes('/') || slug.includes('\\') || slug.includes('..')) throw skillNotFound(slug);
      const seen = await visible(actor, await deps.repository.skillsByBareSlug(slug));
      const owner = ownerHandleOf(ownerHandle);
      if (owner !== undefined) {
        const found = seen.find((s) => s.scope === owner) ?? seen.find((s) => s.scope === null && s.owner.handle.toLowerCase() === owner);
        if (found !== undefined) return found;
        const moved = await formerly(actor, slug, owner);
        if (moved === undefined) throw skillNotFound(`${owner}/${slug}`);
        return moved;
      }
      const unscoped = seen.find((s) => s.scope === null);
      if (unscoped !== undefined) return unscoped;
      if (seen.length === 1) return seen[0]!;
      if (seen.length === 0) {
        const moved = await formerly(actor, slug, undefined);
        if (moved === undefined) throw skillNotFound(slug);
        return moved;
      }
      throw ambiguousSlug(
        slug,
        seen.map((s) => ({ ownerHandle: ownerOf(s), slug: s.slug, ref: `${ownerOf(s)}/${s.slug}`, url: deps.pageUrl(s.full_name) })),
      );
    },

    /** Every skill of this bare slug, whoever may see it: what a new skill's name must not collide with. */
    all: (slug: string) => deps.repository.skillsByBareSlug(slug),
  };
}

export type SkillNames = ReturnType<typeof skillNames>;
