import { useId } from 'react';
import { skills, type AdminSkillStatus } from '../../api/endpoints';
import type { Skill } from '../../api/types';
import { PageHeader } from '../../components/Layout';
import { Pagination } from '../../components/Pagination';
import { EmptyState, ErrorMessage, Loading } from '../../components/States';
import { usePageTitle } from '../../hooks/usePageTitle';
import { useResource } from '../../hooks/useResource';
import { pageParam, useSearchParam, useSearchParamText } from '../../hooks/useSearchParamText';
import { plural } from '../../lib/format';
import { AdminNav } from './AdminNav';
import { SkillModerationTable } from './SkillModerationTable';

const PAGE_SIZE = 25;
const FILTERS: { value: AdminSkillStatus; label: string }[] = [
  { value: 'published', label: 'Published' },
  { value: 'deprecated', label: 'Deprecated' },
  { value: 'draft', label: 'Drafts' },
  { value: 'all', label: 'All' },
];

/** Every skill in any state, to deprecate, republish, feature or unfeature. */
export function AdminSkillsPage() {
  usePageTitle('All skills');
  const id = useId();
  const [params, set] = useSearchParam();
  const [text, setText] = useSearchParamText('q');
  const status = FILTERS.find((f) => f.value === params.get('status'))?.value ?? 'published';
  const featured = params.get('featured') === 'true';
  const q = params.get('q') ?? '';
  const page = pageParam(params);
  const { resource, reload, setData } = useResource(
    (signal) => skills.listByStatus(status, { q, featured: featured || undefined, page, page_size: PAGE_SIZE }, signal),
    [status, q, featured, page],
  );
  const data = resource.data;

  function changed(updated: Skill) {
    setData((current) => current && { ...current, items: current.items.map((s) => (s.id === updated.id ? updated : s)) });
  }

  return (
    <>
      <PageHeader title="Administration" subtitle="Review drafts, moderate published skills and manage accounts." />
      <AdminNav />
      <div className="toolbar">
        <div className="segmented" role="group" aria-label="Status">
          {FILTERS.map((f) => (
            <button
              key={f.value}
              type="button"
              aria-pressed={status === f.value}
              onClick={() => set('status', f.value === 'published' ? null : f.value)}
            >
              {f.label}
            </button>
          ))}
        </div>
        <label className="checkbox">
          <input type="checkbox" checked={featured} onChange={(e) => set('featured', e.target.checked ? 'true' : null)} />
          Featured only
        </label>
        <div className="field field-inline grow">
          <label htmlFor={id} className="visually-hidden">
            Search skills
          </label>
          <input id={id} type="search" placeholder="Search by name or description" value={text} onChange={(e) => setText(e.target.value)} />
        </div>
      </div>
      <section aria-busy={resource.status === 'loading'} aria-labelledby={`${id}-count`}>
        <h2 id={`${id}-count`} className="results-count" aria-live="polite">
          {data ? plural(data.total, 'skill') : 'Skills'}
        </h2>
        {resource.status === 'error' && <ErrorMessage error={resource.error} retry={reload} />}
        {!data && resource.status === 'loading' && <Loading label="Loading skills…" />}
        {data?.items.length === 0 && <EmptyState title="No skills match" />}
        {data && data.items.length > 0 && (
          <>
            <SkillModerationTable skills={data.items} onChange={changed} caption="Skills" />
            <Pagination page={page} pageSize={PAGE_SIZE} total={data.total} onPage={(p) => set('page', p === 1 ? null : String(p))} />
          </>
        )}
      </section>
    </>
  );
}
