import { useId } from 'react';
import { Link } from 'react-router-dom';
import { skills, type AdminSkillStatus } from '../api/endpoints';
import { PageHeader } from '../components/Layout';
import { Pagination } from '../components/Pagination';
import { SkillCard } from '../components/SkillCard';
import { IncomingOffers } from '../components/IncomingOffers';
import { EmptyState, ErrorMessage, Loading } from '../components/States';
import { usePageTitle } from '../hooks/usePageTitle';
import { useResource } from '../hooks/useResource';
import { pageParam, useSearchParam, useSearchParamText } from '../hooks/useSearchParamText';
import { plural } from '../lib/format';
import { manageHref } from '../lib/names';

const PAGE_SIZE = 24;
const FILTERS: { value: AdminSkillStatus; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'draft', label: 'Drafts' },
  { value: 'published', label: 'Published' },
  { value: 'deprecated', label: 'Deprecated' },
];

function statusParam(value: string | null): AdminSkillStatus {
  return FILTERS.find((f) => f.value === value)?.value ?? 'all';
}

/** The caller's own skills in every state. */
export function MySkillsPage() {
  usePageTitle('My skills');
  const [params, set] = useSearchParam();
  const [text, setText] = useSearchParamText('q');
  const searchId = useId();
  const status = statusParam(params.get('status'));
  const q = params.get('q') ?? '';
  const page = pageParam(params);
  const { resource, reload } = useResource((signal) => skills.mine({ status, q, page, page_size: PAGE_SIZE }, signal), [status, q, page]);
  const data = resource.data;

  return (
    <>
      <PageHeader
        title="My skills"
        subtitle="Drafts, published and deprecated: everything you own."
        actions={
          <Link className="button button-primary" to="/me/skills/new">
            New skill
          </Link>
        }
      />
      <IncomingOffers onAccepted={reload} />
      <div className="toolbar">
        <div className="segmented" role="group" aria-label="Status">
          {FILTERS.map((f) => (
            <button
              key={f.value}
              type="button"
              aria-pressed={status === f.value}
              onClick={() => set('status', f.value === 'all' ? null : f.value)}
            >
              {f.label}
            </button>
          ))}
        </div>
        <div className="field field-inline grow">
          <label htmlFor={searchId} className="visually-hidden">
            Search my skills
          </label>
          <input id={searchId} type="search" placeholder="Search my skills" value={text} onChange={(e) => setText(e.target.value)} />
        </div>
      </div>
      <section aria-busy={resource.status === 'loading'} aria-label="Your skills">
        {resource.status === 'error' && <ErrorMessage error={resource.error} retry={reload} />}
        {!data && resource.status === 'loading' && <Loading label="Loading your skills…" />}
        {data?.items.length === 0 && (
          <EmptyState
            title={q || status !== 'all' ? 'Nothing matches' : 'You have no skills yet'}
            action={
              !q && status === 'all' ? (
                <Link className="button button-primary" to="/me/skills/new">
                  Create your first skill
                </Link>
              ) : undefined
            }
          >
            {q || status !== 'all' ? 'Try another filter.' : 'Create a skill, upload its package, and an administrator publishes it.'}
          </EmptyState>
        )}
        {data && data.items.length > 0 && (
          <>
            <h2 className="results-count" aria-live="polite">
              {plural(data.total, 'skill')}
            </h2>
            <ul className="card-grid">
              {data.items.map((skill) => (
                <li key={skill.id}>
                  <SkillCard skill={skill} showStatus href={manageHref(skill)} />
                </li>
              ))}
            </ul>
            <Pagination page={page} pageSize={PAGE_SIZE} total={data.total} onPage={(p) => set('page', p === 1 ? null : String(p))} />
          </>
        )}
      </section>
    </>
  );
}
