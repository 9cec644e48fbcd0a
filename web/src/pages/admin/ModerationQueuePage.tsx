import { Link } from 'react-router-dom';
import { admin } from '../../api/endpoints';
import type { ReviewQueueItem, ReviewState, Skill } from '../../api/types';
import { PageHeader } from '../../components/Layout';
import { Pagination } from '../../components/Pagination';
import { ModerationActions } from '../../components/skill/ModerationActions';
import { EmptyState, ErrorMessage, Loading } from '../../components/States';
import { usePageTitle } from '../../hooks/usePageTitle';
import { useResource } from '../../hooks/useResource';
import { pageParam, useSearchParam } from '../../hooks/useSearchParamText';
import { formatDateTime, formatRelative, plural } from '../../lib/format';
import { skillHref } from '../../lib/names';
import { AdminNav } from './AdminNav';
import { DraftVerdict } from './DraftVerdict';

const PAGE_SIZE = 20;
const STATES: { value: ReviewState; label: string }[] = [
  { value: 'waiting', label: 'Waiting for review' },
  { value: 'changes_requested', label: 'Changes requested' },
];

/**
 * Drafts awaiting review, riskiest first (the registry's order: the version uploaded last judged malicious, then
 * suspicious, then the rest, then drafts without a version; the longest waiting first within each), each with its
 * verdict first and its SKILL.md and files one click away. Declined drafts wait apart, under "Changes requested",
 * until their owner uploads a new version.
 */
export function ModerationQueuePage() {
  usePageTitle('Review queue');
  const [params, set] = useSearchParam();
  const state: ReviewState = params.get('state') === 'changes_requested' ? 'changes_requested' : 'waiting';
  const page = pageParam(params);
  const { resource, reload, setData } = useResource(
    (signal) => admin.reviewQueue({ state, page, page_size: PAGE_SIZE }, signal),
    [state, page],
  );
  const data = resource.data;

  function changed(updated: Skill) {
    // A published draft leaves the queue, and so does one declined while waiting.
    const stays = updated.status === 'draft' && (updated.declined !== null) === (state === 'changes_requested');
    setData(
      (current) =>
        current && {
          ...current,
          items: stays
            ? current.items.map((item) => (item.skill.id === updated.id ? { ...item, skill: updated } : item))
            : current.items.filter((item) => item.skill.id !== updated.id),
          total: current.total - (stays ? 0 : 1),
        },
    );
  }

  return (
    <>
      <PageHeader title="Administration" subtitle="Review drafts, moderate published skills and manage accounts." />
      <AdminNav />
      <div className="toolbar">
        <div className="segmented" role="group" aria-label="Drafts">
          {STATES.map((s) => (
            <button
              key={s.value}
              type="button"
              aria-pressed={state === s.value}
              onClick={() => set('state', s.value === 'waiting' ? null : s.value)}
            >
              {s.label}
            </button>
          ))}
        </div>
      </div>
      <section aria-labelledby="queue-title" aria-busy={resource.status === 'loading'}>
        <h2 id="queue-title" className="results-count">
          {data
            ? state === 'waiting'
              ? `${plural(data.total, 'draft')} awaiting review, riskiest first`
              : `${plural(data.total, 'draft')} with changes requested`
            : 'Drafts awaiting review'}
        </h2>
        {resource.status === 'error' && <ErrorMessage error={resource.error} retry={reload} />}
        {!data && resource.status === 'loading' && <Loading label="Loading drafts…" />}
        {data?.items.length === 0 &&
          (state === 'waiting' ? (
            <EmptyState title="The queue is empty">New drafts appear here when their owners create them.</EmptyState>
          ) : (
            <EmptyState title="No changes requested">Drafts you decline wait here until their owners upload a new version.</EmptyState>
          ))}
        {data && data.items.length > 0 && (
          <>
            <ul className="queue">
              {data.items.map((item) => (
                <DraftItem key={item.skill.id} item={item} onChange={changed} />
              ))}
            </ul>
            <Pagination page={page} pageSize={PAGE_SIZE} total={data.total} onPage={(p) => set('page', p === 1 ? null : String(p))} />
          </>
        )}
      </section>
    </>
  );
}

/**
 * One draft: the scanner's verdict on the version uploaded last first, then what it is and where to read it. That
 * version rather than `latest_version`, since a malicious version is never latest and is what a reviewer must see.
 */
function DraftItem({ item, onChange }: { item: ReviewQueueItem; onChange: (skill: Skill) => void }) {
  const { skill, newest_version: newest } = item;
  const base = skillHref(skill);
  const version = newest ? `version=${encodeURIComponent(newest.version)}` : '';
  return (
    <li className={`card queue-item${newest?.scan?.verdict === 'malicious' ? ' queue-item-malicious' : ''}`}>
      <div className="queue-main">
        <DraftVerdict slug={skill.full_name} newest={newest} />
        <h3>
          <Link to={base}>{skill.name}</Link>
        </h3>
        <p className="muted small">
          {skill.full_name} · by {skill.owner.handle}
          {skill.private ? ' · private' : ''} ·{' '}
          {newest ? `uploaded ${formatRelative(item.waiting_since)}` : `created ${formatRelative(item.waiting_since)}`}
        </p>
        <p>{skill.description || <span className="muted">No description.</span>}</p>
        {skill.declined && (
          <div className="declined-note">
            <p className="small">
              <strong>Changes requested</strong> {formatDateTime(skill.declined.at)}:
            </p>
            <p className="preserve-lines">{skill.declined.reason}</p>
          </div>
        )}
        <p className="queue-links">
          {newest ? (
            <>
              <Link to={`${base}?${version}`}>Read SKILL.md of v{newest.version}</Link>
              <Link to={`${base}?tab=files&${version}`}>Browse files</Link>
              <Link to={`${base}?tab=versions`}>Versions</Link>
            </>
          ) : (
            <span className="warning-text">No version uploaded yet</span>
          )}
        </p>
      </div>
      <ModerationActions skill={skill} onChange={onChange} verdict={newest?.scan?.verdict ?? null} />
    </li>
  );
}
