import { useId, useState } from 'react';
import { ApiError } from '../../api/client';
import { admin, versions as versionApi } from '../../api/endpoints';
import type { Skill, SkillStatus, Verdict, Version } from '../../api/types';
import { useResource } from '../../hooks/useResource';
import { VERDICT_LABEL, countsText } from '../../lib/scan';
import { ConfirmDialog } from '../Dialog';
import { useNotify } from '../Notices';

type Action =
  | { kind: 'status'; to: SkillStatus; label: string }
  | { kind: 'featured'; to: boolean; label: string }
  | { kind: 'decline'; label: string };

/** The transitions an administrator may make from each status (the registry's own table). */
const TRANSITIONS: Record<SkillStatus, { to: SkillStatus; label: string }[]> = {
  draft: [{ to: 'published', label: 'Publish' }],
  published: [{ to: 'deprecated', label: 'Deprecate' }],
  deprecated: [{ to: 'published', label: 'Republish' }],
};

const EFFECT: Record<SkillStatus, string> = {
  published: 'It becomes visible in public search and downloadable by anyone.',
  deprecated: 'It disappears from public search; public downloads and file listings stop working.',
  draft: '',
};

/** As the registry counts it: the longest reason a reviewer may give the owner of a declined draft. */
const DECLINE_REASON_MAX = 2000;

/** The registry's refusals a moderator can meet here, said in words rather than codes and field names. */
function inPlainWords(error: unknown): unknown {
  if (!(error instanceof ApiError)) return error;
  switch (error.code) {
    case 'no_installable_version':
      return new Error(
        'This skill has no version yet, so nobody could install it. Its owner must upload a version before it can be published.',
      );
    case 'skill_quarantined':
      return new Error(
        'Every version of this skill is quarantined, so it can only be published deliberately: tick the box above and give your reason.',
      );
    case 'invalid_transition':
      return new Error('Someone changed this skill while you were looking at it. Reload the page to see where it stands, then try again.');
    case 'not_draft':
      return new Error('This skill is no longer a draft, so it cannot be declined. Reload the page to see where it stands.');
    case 'validation_failed':
      if (error.problem.errors?.some((e) => e.field === 'reason')) return new Error('The reason is missing or too long.');
      return error;
    default:
      return error;
  }
}

/**
 * Publish, decline, deprecate, republish and feature buttons for one skill, each confirmed, most with an optional
 * reason. `verdict` is the scan verdict of the version under review: a draft judged malicious gets no primary Publish
 * button, only a danger-styled one whose confirmation says what is being published.
 */
export function ModerationActions({
  skill,
  onChange,
  compact = false,
  verdict = null,
}: {
  skill: Skill;
  onChange: (skill: Skill) => void;
  compact?: boolean;
  verdict?: Verdict | null;
}) {
  const [action, setAction] = useState<Action | null>(null);
  const [override, setOverride] = useState(false);
  const notify = useNotify();
  const noteId = useId();
  const size = compact ? 'button button-small' : 'button';
  // Nothing to install: neither a latest version nor quarantined ones an administrator could publish deliberately.
  const nothingToPublish = skill.latest_version === null && !skill.quarantined;
  const risky = skill.quarantined || verdict === 'malicious';
  const publishing = action?.kind === 'status' && action.to === 'published';

  async function run(reason: string) {
    if (!action) return;
    try {
      if (action.kind === 'status') {
        const overriding = action.to === 'published' && skill.quarantined;
        if (overriding && !override) {
          throw new Error('Tick the box to confirm that you publish this skill although every version is quarantined.');
        }
        if (overriding && reason === '') {
          throw new Error('Say why you publish it anyway: the reason is kept in the audit trail with your name.');
        }
        const updated = await admin.setStatus(skill.full_name, action.to, reason || undefined, overriding);
        notify(`“${updated.name}” is now ${updated.status}.`);
        onChange(updated);
      } else if (action.kind === 'decline') {
        if (reason === '') throw new Error('Tell the owner what to change: the reason is what they read.');
        const updated = await admin.decline(skill.full_name, { reason });
        notify(`“${updated.name}” was declined; its owner sees your reason.`);
        onChange(updated);
      } else {
        const updated = await admin.setFeatured(skill.full_name, action.to, reason || undefined);
        notify(updated.featured ? `“${updated.name}” is featured.` : `“${updated.name}” is no longer featured.`);
        onChange(updated);
      }
    } catch (error) {
      throw inPlainWords(error);
    }
  }

  return (
    <div className="moderation-actions">
      {TRANSITIONS[skill.status].map((t) => {
        if (t.to === 'published' && nothingToPublish) {
          return (
            <div key={t.to} className="moderation-unavailable">
              <button type="button" className={size} disabled aria-describedby={noteId}>
                {t.label} <span className="visually-hidden">{skill.name}</span>
              </button>
              <p id={noteId} className="small muted">
                Nothing to publish yet: the owner has not uploaded a version.
              </p>
            </div>
          );
        }
        const label = t.to === 'published' && risky ? `${t.label} anyway` : t.label;
        const style = t.to !== 'published' ? 'button-warning' : risky ? 'button-danger-outline' : 'button-primary';
        return (
          <button key={t.to} type="button" className={`${size} ${style}`} onClick={() => setAction({ kind: 'status', to: t.to, label })}>
            {label} <span className="visually-hidden">{skill.name}</span>
          </button>
        );
      })}
      {skill.status === 'draft' && (
        <button type="button" className={size} onClick={() => setAction({ kind: 'decline', label: 'Decline' })}>
          Decline <span className="visually-hidden">{skill.name}</span>
        </button>
      )}
      {(skill.status === 'published' || skill.featured) && (
        <button
          type="button"
          className={size}
          onClick={() => setAction({ kind: 'featured', to: !skill.featured, label: skill.featured ? 'Unfeature' : 'Feature' })}
        >
          {skill.featured ? 'Unfeature' : 'Feature'} <span className="visually-hidden">{skill.name}</span>
        </button>
      )}
      <ConfirmDialog
        open={action !== null}
        title={action ? `${action.label} “${skill.name}”?` : ''}
        confirmLabel={action?.label ?? ''}
        tone={publishing && risky ? 'danger' : 'default'}
        reason={
          action?.kind === 'decline'
            ? {
                label: 'What should the owner change?',
                hint: 'The owner reads this on the skill’s page in the console and in skill-registry info.',
                required: true,
                maxLength: DECLINE_REASON_MAX,
              }
            : {
                label: 'Reason',
                hint: 'Kept in the audit trail with your name and the time.',
                required: publishing && skill.quarantined,
              }
        }
        onConfirm={run}
        onClose={() => {
          setAction(null);
          setOverride(false);
        }}
      >
        {action?.kind === 'status' && <p>{EFFECT[action.to]}</p>}
        {publishing && skill.quarantined && <QuarantineWarning skill={skill} override={override} onOverride={setOverride} />}
        {publishing && !skill.quarantined && verdict === 'malicious' && (
          <p className="alert alert-error">
            The version uploaded last was judged malicious and stays quarantined: nobody but the owner and administrators can download it.
            Publishing makes v{skill.latest_version} installable by everyone.
          </p>
        )}
        {action?.kind === 'decline' && (
          <p>The skill stays a draft and leaves the review queue until its owner uploads a new version, which puts it back in the queue.</p>
        )}
        {action?.kind === 'featured' && (
          <p>{action.to ? 'Featured skills are marked and can be listed first.' : 'The featured mark is removed.'}</p>
        )}
      </ConfirmDialog>
    </div>
  );
}

/**
 * What publishing a quarantined skill means, with the versions that are quarantined and their verdicts, and the
 * deliberate confirmation it takes.
 */
function QuarantineWarning({ skill, override, onOverride }: { skill: Skill; override: boolean; onOverride: (on: boolean) => void }) {
  const { resource } = useResource((signal) => versionApi.list(skill.full_name, 1, signal), [skill.full_name, skill.updated_at]);
  const quarantined: Version[] = (resource.data?.items ?? []).filter((v) => v.scan?.verdict === 'malicious');
  return (
    <div className="alert alert-error quarantine-warning">
      <p className="alert-title">Every version of this skill is quarantined</p>
      <p>
        The package scanner judged {quarantined.length === 1 ? 'its only version' : 'each of its versions'} malicious. Even published,
        nobody but its owner and administrators can download it.
      </p>
      {resource.status === 'error' && <p>The quarantined versions could not be listed; read the skill’s Security tab.</p>}
      {quarantined.length > 0 && (
        <ul aria-label="Quarantined versions">
          {quarantined.map((v) => (
            <li key={v.version}>
              v{v.version}: {VERDICT_LABEL.malicious}
              {v.scan ? ` (${countsText(v.scan.findings)})` : ''}
            </li>
          ))}
        </ul>
      )}
      <label className="checkbox checkbox-wrap">
        <input type="checkbox" checked={override} onChange={(e) => onOverride(e.target.checked)} />
        <span>I have read the security report and publish this skill anyway, although every version is quarantined.</span>
      </label>
    </div>
  );
}
