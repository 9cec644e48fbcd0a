import type { SkillStatus, Verdict } from '../api/types';
import { VERDICT_LABEL, VERDICT_MEANING } from '../lib/scan';

const STATUS_LABEL: Record<SkillStatus, string> = { draft: 'Draft', published: 'Published', deprecated: 'Deprecated' };

export function StatusBadge({ status }: { status: SkillStatus }) {
  return <span className={`badge badge-${status}`}>{STATUS_LABEL[status]}</span>;
}

export function FeaturedBadge() {
  return (
    <span className="badge badge-featured">
      <svg viewBox="0 0 16 16" aria-hidden="true" className="badge-icon">
        <path d="M8 1.5l1.9 4 4.4.5-3.3 3 .9 4.4L8 11.2 4.1 13.4 5 9 1.7 6l4.4-.5z" fill="currentColor" />
      </svg>
      Featured
    </span>
  );
}

/** An HTTP status with its class colour; the number itself carries the meaning, colour only reinforces it. */
export function HttpStatus({ code }: { code: number }) {
  const family = code >= 500 ? 'server' : code >= 400 ? 'client' : code >= 300 ? 'redirect' : 'ok';
  return <span className={`http-status http-${family}`}>{code}</span>;
}

/** A version's scan verdict, or "Not scanned" for a version the scanner has not read. The word carries the meaning. */
export function VerdictBadge({ scan, prefix = false }: { scan: { verdict: Verdict } | null; prefix?: boolean }) {
  const label = scan ? VERDICT_LABEL[scan.verdict] : 'Not scanned';
  return (
    <span
      className={`badge badge-verdict badge-verdict-${scan?.verdict ?? 'none'}`}
      title={scan ? VERDICT_MEANING[scan.verdict] : undefined}
    >
      {prefix && <span className="visually-hidden">Scan verdict: </span>}
      {label}
    </span>
  );
}

/** A skill hidden from everyone but its owner and administrators until its reports are resolved. */
export function HiddenBadge() {
  return <span className="badge badge-hidden">Hidden pending review</span>;
}

/** An organisation's skill that only its members (and administrators) see. */
export function PrivateBadge() {
  return (
    <span className="badge badge-private" title="Only members of the organisation that owns it see this skill.">
      Private
    </span>
  );
}
