import { Link } from 'react-router-dom';
import type { ReviewQueueItem } from '../../api/types';
import { VerdictBadge } from '../../components/Badges';
import { countsText } from '../../lib/scan';
import { namePath } from '../../lib/names';

/** The scanner's verdict on the version a draft's owner uploaded last: the first thing a reviewer reads about it. */
export function DraftVerdict({ slug, newest }: { slug: string; newest: ReviewQueueItem['newest_version'] }) {
  if (newest === null) return <p className="small muted draft-verdict">Nothing scanned: no version yet.</p>;
  return (
    <p className="draft-verdict">
      <VerdictBadge scan={newest.scan} prefix />{' '}
      <span className="small">
        v{newest.version}: {newest.scan ? countsText(newest.scan.findings) : 'not scanned'}
        {newest.scan?.verdict === 'malicious' && ', quarantined'} ·{' '}
        <Link to={`/skills/${namePath(slug)}?tab=security&version=${encodeURIComponent(newest.version)}`}>
          Security report<span className="visually-hidden"> of {slug}</span>
        </Link>
      </span>
    </p>
  );
}
