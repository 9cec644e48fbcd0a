import { Link } from 'react-router-dom';
import { versions as versionApi } from '../../api/endpoints';
import { VerdictBadge } from '../../components/Badges';
import { useResource } from '../../hooks/useResource';
import { countsText } from '../../lib/scan';

/**
 * The scanner's verdict on a draft's newest version, the first thing a reviewer reads about it. The newest
 * version rather than `latest_version`, since a malicious version is never latest and is exactly what a reviewer
 * must see.
 */
export function DraftVerdict({ slug }: { slug: string }) {
  const { resource } = useResource((signal) => versionApi.list(slug, 1, signal), [slug]);
  const newest = resource.data?.items[0];
  if (resource.status === 'error') return <p className="small muted">The scan verdict could not be loaded.</p>;
  if (!resource.data) return <p className="small muted">Loading the scan verdict…</p>;
  if (!newest) return <p className="small muted">Nothing scanned: no version yet.</p>;
  return (
    <p className="draft-verdict">
      <VerdictBadge scan={newest.scan} prefix />{' '}
      <span className="small">
        v{newest.version}: {newest.scan ? countsText(newest.scan.findings) : 'not scanned'}
        {newest.scan?.verdict === 'malicious' && ', quarantined'} ·{' '}
        <Link to={`/skills/${encodeURIComponent(slug)}?tab=security&version=${encodeURIComponent(newest.version)}`}>
          Security report<span className="visually-hidden"> of {slug}</span>
        </Link>
      </span>
    </p>
  );
}
