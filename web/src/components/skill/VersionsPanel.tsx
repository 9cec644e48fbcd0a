import { Link } from 'react-router-dom';
import type { Version } from '../../api/types';
import { formatBytes, formatDate, formatNumber } from '../../lib/format';
import { VerdictBadge } from '../Badges';
import { CopyButton } from '../CopyButton';
import { EmptyState } from '../States';

interface VersionsPanelProps {
  versions: readonly Version[];
  selected: string | null;
  versionHref: (version: string) => string;
  /** Where a version downloads from; null for one this visitor may not download. */
  downloadHref: (version: Version) => string | null;
  securityHref: (version: string) => string;
}

/** Every version, newest first, with its changelog, size, digest and downloads. */
export function VersionsPanel({ versions, selected, versionHref, downloadHref, securityHref }: VersionsPanelProps) {
  if (versions.length === 0) return <EmptyState title="No versions yet" />;
  return (
    <ol className="version-list">
      {versions.map((v) => {
        const download = downloadHref(v);
        return (
          <li key={v.version} className={v.version === selected ? 'version-item selected' : 'version-item'}>
            <div className="version-head">
              <h3>
                <Link to={versionHref(v.version)} aria-current={v.version === selected ? 'true' : undefined}>
                  v{v.version}
                </Link>
              </h3>
              <span className="muted small">
                <time dateTime={v.created_at}>{formatDate(v.created_at)}</time>
              </span>
              <Link to={securityHref(v.version)} className="badge-link">
                <VerdictBadge scan={v.scan} prefix />
                <span className="visually-hidden"> (security report of version {v.version})</span>
              </Link>
              {v.scan?.verdict === 'malicious' && <span className="small danger-text">Quarantined</span>}
              {download && (
                <a className="button button-small" href={download}>
                  Download <span className="visually-hidden">version {v.version}</span>
                </a>
              )}
            </div>
            {v.changelog ? <p className="changelog">{v.changelog}</p> : <p className="muted small">No changelog.</p>}
            <dl className="version-meta">
              <div>
                <dt>Size</dt>
                <dd>
                  {formatBytes(v.size)} {v.archive_format}
                </dd>
              </div>
              <div>
                <dt>Files</dt>
                <dd>{formatNumber(v.file_count)}</dd>
              </div>
              <div>
                <dt>Downloads</dt>
                <dd>{formatNumber(v.downloads)}</dd>
              </div>
              <div className="version-sha">
                <dt>SHA-256</dt>
                <dd>
                  <code className="sha" title={v.sha256}>
                    {v.sha256}
                  </code>
                  <CopyButton text={v.sha256} label="Copy" />
                </dd>
              </div>
            </dl>
            {v.warnings.length > 0 && (
              <p className="small warning-text">
                {v.warnings.length} format {v.warnings.length === 1 ? 'warning' : 'warnings'}: {v.warnings.map((w) => w.message).join('; ')}
              </p>
            )}
          </li>
        );
      })}
    </ol>
  );
}
