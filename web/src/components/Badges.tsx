import type { SkillStatus } from '../api/types';

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
