import { useState } from 'react';
import { ApiError } from '../../api/client';
import { admin } from '../../api/endpoints';
import type { Skill, SkillStatus } from '../../api/types';
import { ConfirmDialog } from '../Dialog';
import { useNotify } from '../Notices';

type Action = { kind: 'status'; to: SkillStatus; label: string } | { kind: 'featured'; to: boolean; label: string };

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

/** Publish, deprecate, republish and feature buttons for one skill, each confirmed with an optional reason. */
export function ModerationActions({
  skill,
  onChange,
  compact = false,
}: {
  skill: Skill;
  onChange: (skill: Skill) => void;
  compact?: boolean;
}) {
  const [action, setAction] = useState<Action | null>(null);
  // Set once the registry refuses to publish because every version is quarantined: the dialog then offers the override.
  const [quarantined, setQuarantined] = useState(false);
  const [override, setOverride] = useState(false);
  const notify = useNotify();
  const size = compact ? 'button button-small' : 'button';

  async function run(reason: string) {
    if (!action) return;
    if (action.kind === 'status') {
      let updated: Skill;
      try {
        updated = await admin.setStatus(skill.slug, action.to, reason || undefined, override);
      } catch (error) {
        if (error instanceof ApiError && error.code === 'skill_quarantined') setQuarantined(true);
        throw error;
      }
      notify(`“${updated.name}” is now ${updated.status}.`);
      onChange(updated);
    } else {
      const updated = await admin.setFeatured(skill.slug, action.to, reason || undefined);
      notify(updated.featured ? `“${updated.name}” is featured.` : `“${updated.name}” is no longer featured.`);
      onChange(updated);
    }
  }

  return (
    <div className="moderation-actions">
      {TRANSITIONS[skill.status].map((t) => (
        <button
          key={t.to}
          type="button"
          className={t.to === 'published' ? `${size} button-primary` : `${size} button-warning`}
          onClick={() => setAction({ kind: 'status', to: t.to, label: t.label })}
        >
          {t.label} <span className="visually-hidden">{skill.name}</span>
        </button>
      ))}
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
        reason={{ label: 'Reason', hint: 'Kept in the audit trail with your name and the time.' }}
        onConfirm={run}
        onClose={() => {
          setAction(null);
          setQuarantined(false);
          setOverride(false);
        }}
      >
        {action?.kind === 'status' && <p>{EFFECT[action.to]}</p>}
        {action?.kind === 'status' && action.to === 'published' && skill.latest_version === null && (
          <p className="warning-text">This skill has no version yet, so there is nothing to download.</p>
        )}
        {action?.kind === 'status' && action.to === 'published' && quarantined && (
          <label className="checkbox">
            <input type="checkbox" checked={override} onChange={(e) => setOverride(e.target.checked)} />
            Publish anyway, although every version is quarantined (give the reason below)
          </label>
        )}
        {action?.kind === 'featured' && (
          <p>{action.to ? 'Featured skills are marked and can be listed first.' : 'The featured mark is removed.'}</p>
        )}
      </ConfirmDialog>
    </div>
  );
}
