import { useSearchParams } from 'react-router-dom';
import { skills } from '../../api/endpoints';
import { useResource } from '../../hooks/useResource';
import { formatNumber } from '../../lib/format';
import { DownloadsChart } from '../DownloadsChart';
import { ErrorMessage, Loading } from '../States';

const RANGES = [30, 90] as const;

/** Downloads over the last 30 or 90 days (the range is in the URL), and the totals per version. */
export function StatsPanel({ slug }: { slug: string }) {
  const [params, setParams] = useSearchParams();
  const days = params.get('days') === '90' ? 90 : 30;
  const { resource, reload } = useResource((signal) => skills.stats(slug, days, signal), [slug, days]);
  const stats = resource.data;

  return (
    <div className="stats">
      <div className="segmented" role="group" aria-label="Range">
        {RANGES.map((range) => (
          <button
            key={range}
            type="button"
            aria-pressed={days === range}
            onClick={() =>
              setParams(
                (prev) => {
                  const next = new URLSearchParams(prev);
                  if (range === 30) next.delete('days');
                  else next.set('days', String(range));
                  return next;
                },
                { replace: true },
              )
            }
          >
            Last {range} days
          </button>
        ))}
      </div>
      {resource.status === 'error' && <ErrorMessage error={resource.error} retry={reload} />}
      {!stats && resource.status === 'loading' && <Loading label="Loading statistics…" />}
      {stats && (
        <>
          <DownloadsChart daily={stats.daily} />
          <div className="stats-totals">
            <p>
              <strong>{formatNumber(stats.total_downloads)}</strong> downloads in total
            </p>
            {stats.versions.length > 0 && (
              <table className="table compact">
                <caption className="visually-hidden">Downloads by version</caption>
                <thead>
                  <tr>
                    <th scope="col">Version</th>
                    <th scope="col" className="num">
                      Downloads
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {stats.versions.map((v) => (
                    <tr key={v.version}>
                      <td>v{v.version}</td>
                      <td className="num">{formatNumber(v.downloads)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </div>
        </>
      )}
    </div>
  );
}
