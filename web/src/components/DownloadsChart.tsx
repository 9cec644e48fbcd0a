import { useId } from 'react';
import type { Stats } from '../api/types';
import { formatDate, formatNumber, plural } from '../lib/format';

/** Rounds a maximum up to a tidy axis value (2, 5, 10, 20, 50, …), so the midline is a whole number. */
function niceMax(value: number): number {
  if (value <= 2) return 2;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (value <= step * magnitude) return step * magnitude;
  return 10 * magnitude;
}

function dayLabel(date: string): string {
  return formatDate(`${date}T00:00:00Z`);
}

/**
 * Daily downloads as a bar chart, drawn as plain SVG. The picture is for sighted readers; the same numbers
 * are in the summary and, on request, in a table.
 */
export function DownloadsChart({ daily }: { daily: Stats['daily'] }) {
  const tableId = useId();
  const total = daily.reduce((sum, d) => sum + d.downloads, 0);
  const max = niceMax(Math.max(0, ...daily.map((d) => d.downloads)));
  const width = Math.max(1, daily.length) * 10;
  const height = 100;
  const first = daily[0];
  const last = daily[daily.length - 1];
  const summary = first && last ? `${plural(total, 'download')} from ${dayLabel(first.date)} to ${dayLabel(last.date)}` : 'No data';

  return (
    <figure className="chart">
      <figcaption className="chart-caption">{summary}</figcaption>
      <div className="chart-body">
        <div className="chart-axis" aria-hidden="true">
          <span>{formatNumber(max)}</span>
          <span>{formatNumber(max / 2)}</span>
          <span>0</span>
        </div>
        <svg
          className="chart-svg"
          viewBox={`0 0 ${width} ${height}`}
          preserveAspectRatio="none"
          role="img"
          aria-label={`Daily downloads: ${summary}`}
        >
          {[0.5, 1].map((f) => (
            <line
              key={f}
              className="chart-grid"
              x1={0}
              x2={width}
              y1={height - f * height}
              y2={height - f * height}
              vectorEffect="non-scaling-stroke"
            />
          ))}
          {daily.map((d, i) => {
            const h = (d.downloads / max) * height;
            return (
              <rect
                key={d.date}
                className="chart-bar"
                x={i * 10 + 1.5}
                width={7}
                y={height - Math.max(h, d.downloads > 0 ? 1.5 : 0)}
                height={Math.max(h, d.downloads > 0 ? 1.5 : 0)}
              >
                <title>{`${dayLabel(d.date)}: ${plural(d.downloads, 'download')}`}</title>
              </rect>
            );
          })}
          <line className="chart-baseline" x1={0} x2={width} y1={height} y2={height} vectorEffect="non-scaling-stroke" />
        </svg>
      </div>
      {first && last && (
        <div className="chart-x" aria-hidden="true">
          <span>{dayLabel(first.date)}</span>
          <span>{dayLabel(last.date)}</span>
        </div>
      )}
      <details className="chart-table">
        <summary aria-controls={tableId}>Show as a table</summary>
        <div className="table-scroll">
          <table id={tableId}>
            <thead>
              <tr>
                <th scope="col">Day (UTC)</th>
                <th scope="col" className="num">
                  Downloads
                </th>
              </tr>
            </thead>
            <tbody>
              {[...daily].reverse().map((d) => (
                <tr key={d.date}>
                  <td>{dayLabel(d.date)}</td>
                  <td className="num">{formatNumber(d.downloads)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
