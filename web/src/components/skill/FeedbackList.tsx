import { useState } from 'react';
import { feedback } from '../../api/endpoints';
import { useResource } from '../../hooks/useResource';
import { formatDateTime, formatRelative, plural } from '../../lib/format';
import { Pagination } from '../Pagination';
import { EmptyState, ErrorMessage, Loading } from '../States';
import { Stars } from './Stars';

const PAGE_SIZE = 20;

/** Feedback a skill received, with the rating summary; for its owner and administrators. */
export function FeedbackList({ slug }: { slug: string }) {
  const [page, setPage] = useState(1);
  const [rating, setRating] = useState<number | null>(null);
  const { resource, reload } = useResource(
    (signal) => feedback.list(slug, { page, page_size: PAGE_SIZE, rating: rating ?? undefined }, signal),
    [slug, page, rating],
  );
  const data = resource.data;
  return (
    <div className="feedback-list">
      {data && (
        <div className="rating-summary">
          {data.summary.average_rating !== null ? (
            <>
              <span className="rating-average">{data.summary.average_rating.toFixed(1)}</span>
              <Stars rating={data.summary.average_rating} label={`Average rating ${data.summary.average_rating} out of 5`} />
            </>
          ) : (
            <span className="muted">No ratings yet</span>
          )}
          <span className="muted">{plural(data.summary.count, 'response')}</span>
          <label className="field-inline rating-filter">
            <span>Show</span>
            <select
              value={rating ?? ''}
              onChange={(e) => {
                setRating(e.target.value === '' ? null : Number(e.target.value));
                setPage(1);
              }}
            >
              <option value="">All ratings</option>
              {[5, 4, 3, 2, 1].map((r) => (
                <option key={r} value={r}>
                  {plural(r, 'star')}
                </option>
              ))}
            </select>
          </label>
        </div>
      )}
      {resource.status === 'error' && <ErrorMessage error={resource.error} retry={reload} />}
      {!data && resource.status === 'loading' && <Loading label="Loading feedback…" />}
      {data?.items.length === 0 && <EmptyState title={rating === null ? 'No feedback yet' : 'No feedback with this rating'} />}
      {data && data.items.length > 0 && (
        <>
          <ul className="feedback-items">
            {data.items.map((item) => (
              <li key={item.id} className="feedback-item">
                <div className="feedback-head">
                  {item.rating !== null ? <Stars rating={item.rating} /> : <span className="muted small">No rating</span>}
                  <span className="small">{item.author ? item.author.username : 'Anonymous visitor'}</span>
                  {item.version && <span className="tag">v{item.version}</span>}
                  <time className="muted small" dateTime={item.created_at} title={formatDateTime(item.created_at)}>
                    {formatRelative(item.created_at)}
                  </time>
                </div>
                {item.comment && <p className="feedback-comment">{item.comment}</p>}
              </li>
            ))}
          </ul>
          <Pagination page={page} pageSize={PAGE_SIZE} total={data.total} onPage={setPage} label="Feedback pages" />
        </>
      )}
    </div>
  );
}
