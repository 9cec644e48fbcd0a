import { useId } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { skills } from '../api/endpoints';
import type { SkillSort } from '../api/types';
import { PageHeader } from '../components/Layout';
import { Pagination } from '../components/Pagination';
import { SkillCard } from '../components/SkillCard';
import { EmptyState, ErrorMessage, Loading } from '../components/States';
import { usePageTitle } from '../hooks/usePageTitle';
import { useResource } from '../hooks/useResource';
import { pageParam, useSearchParamText } from '../hooks/useSearchParamText';
import { plural } from '../lib/format';
import { splitTags } from '../lib/tags';
import { useSession } from '../session/session';

const PAGE_SIZE = 24;
const SORTS: { value: SkillSort; label: string }[] = [
  { value: 'relevance', label: 'Best match' },
  { value: 'latest', label: 'Recently updated' },
  { value: 'downloads', label: 'Most downloaded' },
  { value: 'featured', label: 'Featured first' },
];

/** Best match is the default, and only possible, with search words; recently updated without them. */
function sortParam(value: string | null, searching: boolean): SkillSort {
  if (value === 'downloads' || value === 'featured' || (value === 'latest' && searching)) return value;
  return searching ? 'relevance' : 'latest';
}

/**
 * Browse and search: the registry's front page. Everything that shapes the results lives in the URL
 * (q, category, tags, featured, sort, page), so a search can be bookmarked and shared.
 */
export function BrowsePage() {
  const [params, setParams] = useSearchParams();
  const [text, setText] = useSearchParamText('q');
  const [categoryText, setCategoryText] = useSearchParamText('category');
  const [tagsText, setTagsText] = useSearchParamText('tags');
  const { user } = useSession();
  const searchId = useId();

  const q = params.get('q') ?? '';
  const category = params.get('category') ?? '';
  const tags = splitTags(params.get('tags') ?? '').join(',');
  const featured = params.get('featured') === 'true';
  const sort = sortParam(params.get('sort'), q.trim() !== '');
  const defaultSort = q.trim() !== '' ? 'relevance' : 'latest';
  const page = pageParam(params);
  usePageTitle(q ? `Search: ${q}` : undefined);

  const { resource, reload } = useResource(
    (signal) =>
      skills.list(
        {
          q,
          category,
          tags,
          featured: featured || undefined,
          sort,
          page,
          page_size: PAGE_SIZE,
        },
        signal,
      ),
    [q, category, tags, featured, sort, page],
  );

  function update(changes: Record<string, string | null>, resetPage = true) {
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      for (const [name, value] of Object.entries(changes)) {
        if (value === null || value === '') next.delete(name);
        else next.set(name, value);
      }
      if (resetPage) next.delete('page');
      return next;
    });
  }

  function addTag(tag: string) {
    const current = splitTags(params.get('tags') ?? '');
    if (!current.includes(tag)) update({ tags: [...current, tag].join(',') });
  }

  const filtered = q !== '' || category !== '' || tags !== '' || featured;
  const data = resource.data;

  return (
    <>
      <PageHeader
        title="Find skills for your agents"
        subtitle="Installable skill packages: instructions, scripts and resources, each with a SKILL.md."
        actions={
          user ? (
            <Link className="button button-primary" to="/me/skills/new">
              Publish a skill
            </Link>
          ) : undefined
        }
      />
      <div className="search-panel">
        <form
          role="search"
          onSubmit={(event) => {
            event.preventDefault();
            update({ q: text.trim() });
          }}
        >
          <label htmlFor={searchId} className="visually-hidden">
            Search skills
          </label>
          <div className="search-box">
            <svg viewBox="0 0 24 24" aria-hidden="true" className="search-icon">
              <circle cx="11" cy="11" r="7" fill="none" stroke="currentColor" strokeWidth="2" />
              <path d="m20 20-4-4" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
            <input
              id={searchId}
              type="search"
              placeholder="Search by name or description, e.g. pdf tables"
              value={text}
              onChange={(e) => setText(e.target.value)}
              autoComplete="off"
              maxLength={500}
            />
          </div>
        </form>
        <div className="filters" aria-label="Filters" role="group">
          <div className="field field-inline">
            <label htmlFor={`${searchId}-category`}>Category</label>
            <input
              id={`${searchId}-category`}
              value={categoryText}
              onChange={(e) => setCategoryText(e.target.value)}
              placeholder="any"
              maxLength={64}
            />
          </div>
          <div className="field field-inline">
            <label htmlFor={`${searchId}-tags`}>Tags</label>
            <input id={`${searchId}-tags`} value={tagsText} onChange={(e) => setTagsText(e.target.value)} placeholder="e.g. pdf, office" />
          </div>
          <div className="field field-inline">
            <label htmlFor={`${searchId}-sort`}>Sort</label>
            <select
              id={`${searchId}-sort`}
              value={sort}
              onChange={(e) => update({ sort: e.target.value === defaultSort ? null : e.target.value })}
            >
              {SORTS.filter((s) => s.value !== 'relevance' || defaultSort === 'relevance').map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </select>
          </div>
          <label className="checkbox">
            <input type="checkbox" checked={featured} onChange={(e) => update({ featured: e.target.checked ? 'true' : null })} />
            Featured only
          </label>
        </div>
      </div>

      <section aria-labelledby={`${searchId}-results`} className="results" aria-busy={resource.status === 'loading'}>
        <div className="results-bar">
          <h2 id={`${searchId}-results`} className="results-count" aria-live="polite">
            {data ? `${plural(data.total, 'skill')}${q ? ` for “${q}”` : ''}` : 'Skills'}
          </h2>
          {resource.status === 'loading' && data && <Loading inline label="Updating…" />}
          {filtered && (
            <button
              type="button"
              className="button button-small button-ghost"
              onClick={() => {
                setText('');
                setCategoryText('');
                setTagsText('');
                update({ q: null, category: null, tags: null, featured: null });
              }}
            >
              Clear filters
            </button>
          )}
        </div>
        {data?.match === 'partial' && data.items.length > 0 && (
          <p className="notice notice-info" role="status">
            No skill matches every word; these match some of them.
          </p>
        )}
        {resource.status === 'error' && <ErrorMessage error={resource.error} retry={reload} />}
        {!data && resource.status === 'loading' && <Loading label="Loading skills…" />}
        {data?.items.length === 0 && (
          <EmptyState title={filtered ? 'No skills match' : 'No skills published yet'}>
            {filtered
              ? 'Try fewer words, another tag, or clear the filters.'
              : 'Published skills appear here once an administrator approves them.'}
          </EmptyState>
        )}
        {data && data.items.length > 0 && (
          <>
            <ul className="card-grid">
              {data.items.map((skill) => (
                <li key={skill.id}>
                  <SkillCard skill={skill} onTag={addTag} />
                </li>
              ))}
            </ul>
            <Pagination
              page={page}
              pageSize={PAGE_SIZE}
              total={data.total}
              onPage={(p) => update({ page: p === 1 ? null : String(p) }, false)}
            />
          </>
        )}
      </section>
    </>
  );
}
