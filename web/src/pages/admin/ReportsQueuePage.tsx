import { Link } from 'react-router-dom';
import { admin } from '../../api/endpoints';
import type { ReportQueueItem, ReportState } from '../../api/types';
import { HiddenBadge, StatusBadge } from '../../components/Badges';
import { PageHeader } from '../../components/Layout';
import { useNotify } from '../../components/Notices';
import { Pagination } from '../../components/Pagination';
import { EmptyState, ErrorMessage, Loading } from '../../components/States';
import { usePageTitle } from '../../hooks/usePageTitle';
import { useResource } from '../../hooks/useResource';
import { pageParam, useSearchParam } from '../../hooks/useSearchParamText';
import { formatRelative, plural } from '../../lib/format';
import { REASON_LABEL } from '../../lib/reports';
import { AdminNav } from './AdminNav';
import { SkillReports } from './SkillReports';

const PAGE_SIZE = 20;
const STATES: { value: ReportState; label: string }[] = [
  { value: 'open', label: 'Open' },
  { value: 'resolved', label: 'Resolved' },
];

/**
 * Skills people reported, most reporters first, each with its reasons; one skill's reports open below the
 * queue (`?skill=`), where an administrator dismisses them or acts on them.
 */
export function ReportsQueuePage() {
  usePageTitle('Reports');
  const [params, set] = useSearchParam();
  const state: ReportState = params.get('state') === 'resolved' ? 'resolved' : 'open';
  const page = pageParam(params);
  const selected = params.get('skill');
  const notify = useNotify();
  const { resource, reload } = useResource((signal) => admin.reportQueue({ state, page, page_size: PAGE_SIZE }, signal), [state, page]);
  const data = resource.data;
  const selectedItem = data?.items.find((item) => item.skill.slug === selected);

  return (
    <>
      <PageHeader title="Administration" subtitle="Review drafts, moderate published skills and manage accounts." />
      <AdminNav />
      <div className="toolbar">
        <div className="segmented" role="group" aria-label="Reports">
          {STATES.map((s) => (
            <button
              key={s.value}
              type="button"
              aria-pressed={state === s.value}
              onClick={() => set('state', s.value === 'open' ? null : s.value)}
            >
              {s.label}
            </button>
          ))}
        </div>
      </div>
      <section aria-labelledby="reports-title" aria-busy={resource.status === 'loading'}>
        <h2 id="reports-title" className="results-count">
          {data ? `${plural(data.total, 'skill')} with ${state} reports` : 'Reported skills'}
        </h2>
        {resource.status === 'error' && <ErrorMessage error={resource.error} retry={reload} />}
        {!data && resource.status === 'loading' && <Loading label="Loading reports…" />}
        {data?.items.length === 0 && (
          <EmptyState title={state === 'open' ? 'No open reports' : 'No resolved reports'}>
            {state === 'open' ? 'Skills people report appear here.' : 'Reports you resolve appear here.'}
          </EmptyState>
        )}
        {data && data.items.length > 0 && (
          <>
            <ul className="queue">
              {data.items.map((item) => (
                <QueueItem
                  key={item.skill.id}
                  item={item}
                  selected={item.skill.slug === selected}
                  onOpen={() => set('skill', item.skill.slug)}
                />
              ))}
            </ul>
            <Pagination page={page} pageSize={PAGE_SIZE} total={data.total} onPage={(p) => set('page', p === 1 ? null : String(p))} />
          </>
        )}
      </section>
      {selected && (
        <SkillReports
          key={`${selected}-${state}`}
          slug={selected}
          name={selectedItem?.skill.name ?? selected}
          status={selectedItem?.skill.status ?? null}
          state={state}
          onClose={() => set('skill', null)}
          onResolved={(resolved) => {
            notify(`${plural(resolved.resolved, 'report')} ${resolved.resolution}; the skill is ${resolved.status}.`);
            set('skill', null);
            reload();
          }}
        />
      )}
    </>
  );
}

function QueueItem({ item, selected, onOpen }: { item: ReportQueueItem; selected: boolean; onOpen: () => void }) {
  const { skill } = item;
  return (
    <li className={selected ? 'card queue-item selected' : 'card queue-item'}>
      <div className="queue-main">
        <h3>
          {/* By id: the queue's skill carries no scope, and the skill page moves to the skill's whole name. */}
          <Link to={`/skills/${encodeURIComponent(skill.id)}`}>{skill.name}</Link>
        </h3>
        <div className="badges">
          <StatusBadge status={skill.status} />
          {skill.hidden && <HiddenBadge />}
        </div>
        <p className="muted small">
          {skill.slug} · by {skill.owner.username} · first reported {formatRelative(item.first_reported_at)}, last{' '}
          {formatRelative(item.last_reported_at)}
        </p>
        <p>
          <strong>{plural(item.reporters, 'reporter')}</strong>, {plural(item.reports, 'report')}
        </p>
        <ul className="report-reasons" aria-label="Reasons">
          {item.reasons.map((r) => (
            <li key={r.reason} className="tag">
              {REASON_LABEL[r.reason]} × {r.count}
            </li>
          ))}
        </ul>
      </div>
      <div className="moderation-actions">
        <button type="button" className="button" aria-expanded={selected} onClick={onOpen}>
          Read reports<span className="visually-hidden"> of {skill.name}</span>
        </button>
      </div>
    </li>
  );
}
