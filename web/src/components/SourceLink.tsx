import type { Skill } from '../api/types';

/** The declared source of a skill, labelled by its kind: a code repository, an external page, or original work. */
export function SourceLink({ skill }: { skill: Pick<Skill, 'source_type' | 'source_url'> }) {
  switch (skill.source_type) {
    case 'github':
      return <ExternalLink href={skill.source_url} label="GitHub repository" />;
    case 'external':
      return <ExternalLink href={skill.source_url} label="External source" />;
    case 'original':
      return <span>Original work of its publisher</span>;
    case null:
      return <span className="muted">Not declared</span>;
  }
}

function ExternalLink({ href, label }: { href: string | null; label: string }) {
  if (href === null) return <span>{label}</span>;
  return (
    <span className="source-link">
      <span className="source-label">{label}</span>{' '}
      <a href={href} rel="noopener noreferrer nofollow" target="_blank">
        {displayUrl(href)}
        <span className="visually-hidden"> (opens in a new tab)</span>
      </a>
    </span>
  );
}

function displayUrl(url: string): string {
  return url.replace(/^https?:\/\//, '').replace(/\/$/, '');
}

export const SOURCE_LABELS = {
  none: 'Not declared',
  original: 'Original work (no upstream source)',
  github: 'GitHub repository',
  external: 'External website',
} as const;
