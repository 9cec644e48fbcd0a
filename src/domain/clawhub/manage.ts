import { AppError, conflict, notFound } from '../errors.js';
import type { AuthenticatedActor, Actor } from '../actor.js';
import type { OrganisationService } from '../orgs/organisations.js';
import { bareSlug, type SkillService } from '../skills/skills.js';
import type { Transfer, TransferService } from '../skills/transfers.js';
import { deterministicZip } from '../versions/agent-archive.js';
import type { VersionService } from '../versions/versions.js';
import { ownerHandleOf, ownerOf, type SkillNames } from './names.js';

/**
 * The `clawhub` commands that manage skills (transfer, skill rename, publisher create, delete, scan download) over
 * the registry's own services, each with its rules: who may, what is audited, what the old name does. What the
 * registry does not have is answered by `notAvailable`: one sentence that says what to use instead.
 */

const ms = (iso: string) => new Date(iso).getTime();

/**
 * A `clawhub` command whose feature this registry does not have. ClawHub answers an unavailable feature with a 4xx
 * and a text body, which the client prints as its one error line (a 5xx it would retry first); the registry's
 * problem document turns into that text on the ClawHub routes.
 */
export function notAvailable(detail: string): AppError {
  return new AppError(404, 'clawhub_not_available', detail);
}

/** One open offer as `clawhub transfer list` prints it. */
export interface ClawhubTransfer {
  _id: string;
  skill: { _id: string; slug: string; displayName: string };
  fromUser?: { _id: string; handle: string | null; displayName: string | null };
  toUser?: { _id: string; handle: string | null; displayName: string | null };
  requestedAt: number;
  expiresAt: number;
}

export function clawhubManagement(deps: {
  names: SkillNames;
  skills: SkillService;
  versions: VersionService;
  transfers: TransferService;
  orgs: OrganisationService;
}) {
  const { names, transfers } = deps;

  /** An offer in the client's shape; the skill by its row, since the receiver may not be able to read it yet. */
  async function transferView(offer: Transfer): Promise<ClawhubTransfer> {
    const row = await deps.skills.find(offer.skill);
    const from = offer.offered_by;
    return {
      _id: offer.id,
      skill: { _id: row?.id ?? offer.skill, slug: bareSlug(offer.skill), displayName: row?.name ?? bareSlug(offer.skill) },
      ...(from === null ? {} : { fromUser: { _id: from, handle: from, displayName: from } }),
      toUser: { _id: offer.to, handle: offer.to, displayName: offer.to },
      requestedAt: ms(offer.created_at),
      expiresAt: ms(offer.expires_at),
    };
  }

  /** The owner handle ClawHub names a skill's row by: its scope, else the owning organisation or user. */
  async function ownerOfOffer(offer: Transfer): Promise<string | undefined> {
    const row = await deps.skills.find(offer.skill);
    return row === undefined ? undefined : (row.scope ?? row.org_handle ?? row.owner_username).toLowerCase();
  }

  return {
    /** `clawhub transfer request`: an offer of the skill to a user or an organisation, which accepts it. */
    async requestTransfer(actor: AuthenticatedActor, slug: string, ownerHandle: string | undefined, to: string) {
      const skill = await names.find(actor, slug, ownerHandle);
      const offer = await transfers.offer(actor, skill.id, { to });
      return {
        ok: true as const,
        transferId: offer.id,
        toUserHandle: offer.to,
        skillSlug: skill.slug,
        expiresAt: ms(offer.expires_at),
        // The receiver always accepts first: the registry moves no skill on the offering side's word alone.
        transferred: false as const,
      };
    },

    /** `clawhub transfer list` (`--outgoing`): the open offers to the caller, or those the caller made. */
    async listTransfers(actor: AuthenticatedActor, direction: 'incoming' | 'outgoing') {
      const offers = direction === 'incoming' ? await transfers.received(actor) : await transfers.sent(actor);
      return { transfers: await Promise.all(offers.map(transferView)) };
    },

    /**
     * `clawhub transfer accept|reject`: the open offer to the caller of the skill named so. The client names the
     * skill, not the offer; two offers of one slug from different owners need the owner (`owner/slug`).
     */
    async answerTransfer(actor: AuthenticatedActor, slug: string, ownerHandle: string | undefined, accept: boolean) {
      const owner = ownerHandleOf(ownerHandle);
      const offered = (await transfers.received(actor)).filter((o) => bareSlug(o.skill) === slug.toLowerCase());
      const matching = [];
      for (const offer of offered) if (owner === undefined || (await ownerOfOffer(offer)) === owner) matching.push(offer);
      const [offer, ...others] = matching;
      if (offer === undefined) {
        throw notFound('transfer_not_found', `No open transfer of "${owner === undefined ? slug : `${owner}/${slug}`}" is offered to you.`);
      }
      if (others.length > 0) {
        throw conflict(
          'ambiguous_skill_slug',
          `Several owners offer you a skill "${slug}" (${matching.map((o) => o.skill).join(', ')}); name the owner as well, e.g. owner/${slug}.`,
        );
      }
      if (accept) await transfers.accept(actor, offer.id);
      else await transfers.decline(actor, offer.id);
      return { ok: true as const, skillSlug: bareSlug(offer.skill) };
    },

    /** `clawhub transfer cancel`: the offering side withdraws the skill's open offer. */
    async cancelTransfer(actor: AuthenticatedActor, slug: string, ownerHandle: string | undefined) {
      const skill = await names.find(actor, slug, ownerHandle);
      const [offer] = await transfers.ofSkill(actor, skill.id);
      if (offer === undefined) throw notFound('transfer_not_found', `"${skill.full_name}" has no open transfer offer.`);
      await transfers.withdraw(actor, offer.id);
      return { ok: true as const, skillSlug: skill.slug };
    },

    /** `clawhub skill rename`: a new slug in the skill's scope; the old name keeps leading to it. */
    async rename(actor: AuthenticatedActor, slug: string, ownerHandle: string | undefined, newSlug: string) {
      const skill = await names.find(actor, slug, ownerHandle);
      const renamed = await transfers.rename(actor, skill.id, { slug: newSlug });
      return { ok: true as const, slug: renamed.slug, previousSlug: skill.slug };
    },

    /** `clawhub publisher create`: an organisation, the caller its first owner. */
    async createPublisher(actor: AuthenticatedActor, handle: string, displayName: string | undefined) {
      const org = await deps.orgs.create(actor, {
        handle: handle.replace(/^@+/, ''),
        ...(displayName ? { display_name: displayName } : {}),
      });
      return { ok: true as const, publisherId: org.id, handle: org.handle, created: true as const, trusted: false as const };
    },

    /**
     * `clawhub delete` (and `hide`, which sends the same request): the registry lets an owner delete a draft, with its
     * versions, for good. A published skill stays; versions are immutable and stay too.
     */
    async delete(actor: Actor, slug: string, ownerHandle: string | undefined, version: string | undefined) {
      if (version !== undefined) {
        throw notAvailable(
          `This registry keeps every version of a skill: "${version}" cannot be withdrawn. Publish a newer version with \`clawhub publish\`; a version the package scanner finds malicious is quarantined and never offered.`,
        );
      }
      const skill = await names.find(actor, slug, ownerHandle);
      try {
        await deps.versions.removeDraft(actor, skill.id);
      } catch (error) {
        if (error instanceof AppError && error.code === 'not_draft') {
          throw conflict(
            'not_draft',
            `"${skill.full_name}" is ${skill.status}: this registry deletes only drafts, and hides skills only by an administrator's decision. Ask an administrator to deprecate it, or report it on its page in the console.`,
          );
        }
        throw error;
      }
      return { ok: true as const };
    },

    /**
     * `clawhub scan download`: the version's stored scan report as a ZIP (manifest.json in the client's shape,
     * scan-report.json as /v1 serves it, README.md), visible as /v1's report is: as the version is.
     */
    async scanReport(actor: Actor, slug: string, ownerHandle: string | undefined, version: string) {
      const skill = await names.find(actor, slug, ownerHandle);
      const report = await deps.versions.scanReport(actor, skill.id, version);
      const scanned = ms(report.scanned_at);
      const manifest = {
        scanId: `${skill.full_name}@${version}`,
        sourceKind: 'published',
        update: false,
        status: 'succeeded',
        artifact: { slug: skill.slug, ownerHandle: ownerOf(skill), version, verdict: report.verdict, rulesVersion: report.rules_version },
        createdAt: scanned,
        updatedAt: scanned,
        completedAt: scanned,
        writtenBack: true,
      };
      const readme = [
        `# Scan report of ${skill.full_name} ${version}`,
        '',
        `Verdict: ${report.verdict} (rules ${report.rules_version}, scanned ${report.scanned_at}).`,
        '',
        "- `scan-report.json`: the registry's scan report, as GET /v1/skills/{skill}/versions/{version}/scan answers it:",
        '  the verdict, the findings counted and listed, the URLs and domains the package mentions, and the',
        "  owner's explanation.",
        '- `manifest.json`: which version was scanned, and when.',
        '',
        'A malicious verdict quarantines the version: it is never offered for install. A suspicious one asks for',
        'confirmation before an install.',
        '',
      ].join('\n');
      const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);
      const zip = await deterministicZip([
        { path: 'manifest.json', bytes: json(manifest), executable: false },
        { path: 'scan-report.json', bytes: json(report), executable: false },
        { path: 'README.md', bytes: Buffer.from(readme), executable: false },
      ]);
      return { name: `${skill.slug}-${version}-scan.zip`, bytes: zip };
    },
  };
}

export type ClawhubManagement = ReturnType<typeof clawhubManagement>;
