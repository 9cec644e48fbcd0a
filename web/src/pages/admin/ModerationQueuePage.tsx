import { Link, useSearchParams } from 'react-router-dom';
import { skills, versions as versionApi } from '../../api/endpoints';
import type { Skill } from '../../api/types';
import { PageHeader } from '../../components/Layout';
import { Pagination } from '../../components/Pagination';
import { ModerationActions } from '../../components/skill/ModerationActions';
import { EmptyState, ErrorMessage, Loading } from '../../components/States';
import { usePageTitle } from '../../hooks/usePageTitle';
import { useResource } from '../../hooks/useResource';
import { pageParam } from '../../hooks/useSearchParamText';
import { formatRelative, plural } from '../../lib/format';
import { AdminNav } from './AdminNav';
import { DraftVerdict } from './DraftVerdict';

const PAGE_SIZE = 20;

/** Drafts awaiting review, oldest change last; each with its SKILL.md and files one click away. */
export function ModerationQueuePage() {
  usePageTitle('Review queue');
  const [params, setParams] = useSearchParams();
  const page = pageParam(params);
  const { resource, reload, setData } = useResource(
    (signal) => skills.listByStatus('draft', { page, page_size: PAGE_SIZE, sort: 'latest' }, signal),
    [page],
  );
  const data = resource.data;

  function changed(updated: Skill) {
    // A published draft leaves the queue.
    setData(
      (current) =>
        current && {
          ...current,
          items: current.items.filter((s) => s.id !== updated.id || updated.status === 'draft'),
          total: current.total - (updated.status === 'draft' ? 0 : 1),
        },
    );
  }

  return (
    <>
      <PageHeader title="Administration" subtitle="Review drafts, moderate published skills and manage accounts." />
      <AdminNav />
      <section aria-labelledby="queue-title" aria-busy={resource.status === 'loading'}>
        <h2 id="queue-title" className="results-count">
          {data ? `${plural(data.total, 'draft')} awaiting review` : 'Drafts awaiting review'}
        </h2>
        {resource.status === 'error' && <ErrorMessage error={resource.error} retry={reload} />}
        {!data && resource.status === 'loading' && <Loading label="Loading drafts…" />}
        {data?.items.length === 0 && (
          <EmptyState title="The queue is empty">New drafts appear here when their owners create them.</EmptyState>
        )}
        {data && data.items.length > 0 && (
          <>
            <ul className="queue">
              {data.items.map((skill) => (
                <DraftItem key={skill.id} skill={skill} onChange={changed} />
              ))}
            </ul>
            <Pagination page={page} pageSize={PAGE_SIZE} total={data.total} onPage={(p) => setParams(p === 1 ? {} : { page: String(p) })} />
          </>
        )}
      </section>
    </>
  );
}

/**
 * One draft: the scanner's verdict on its newest version first, then what it is and where to read it. The newest
 * version rather than `latest_version`, since a malicious version is never latest and is what a reviewer must see.
 */
function DraftItem({ skill, onChange }: { skill: Skill; onChange: (skill: Skill) => void }) {
  const { resource } = useResource((signal) => versionApi.list(skill.slug, 1, signal), [skill.slug, skill.updated_at]);
  const newest = resource.data ? (resource.data.items[0] ?? null) : resource.status === 'error' ? null : undefined;
  const base = `/skills/${encodeURIComponent(skill.slug)}`;
  const version = newest ? `version=${encodeURIComponent(newest.version)}` : '';
  return (
    <li className="card queue-item">
      <div className="queue-main">
        {resource.status === 'error' ? (
          <p className="small warning-text draft-verdict">The scan verdict could not be loaded.</p>
        ) : (
          <DraftVerdict slug={skill.slug} newest={newest} />
        )}
        <h3>
          <Link to={base}>{skill.name}</Link>
        </h3>
        <p className="muted small">
          {skill.slug} · by {skill.owner.username} · changed {formatRelative(skill.updated_at)}
        </p>
        <p>{skill.description || <span className="muted">No description.</span>}</p>
        <p className="queue-links">
          {newest ? (
            <>
              <Link to={`${base}?${version}`}>Read SKILL.md of v{newest.version}</Link>
              <Link to={`${base}?tab=files&${version}`}>Browse files</Link>
              <Link to={`${base}?tab=versions`}>Versions</Link>
            </>
          ) : (
            newest === null && resource.status !== 'error' && <span className="warning-text">No version uploaded yet</span>
          )}
        </p>
      </div>
      <ModerationActions skill={skill} onChange={onChange} />
    </li>
  );
}
