import { Link } from 'react-router-dom';
import type { Skill, SkillResult } from '../api/types';
import { formatCompact, formatRelative } from '../lib/format';
import { skillHref } from '../lib/names';
import { FeaturedBadge, HiddenBadge, PrivateBadge, StatusBadge } from './Badges';
import { Highlighted } from './Highlighted';
import { SkillOwner } from './SkillOwner';

interface SkillCardProps {
  /** A search result carries the spans its words matched, shown marked. */
  skill: Skill | SkillResult;
  /** Shows the status badge (my skills, admin lists); public lists hold published skills only. */
  showStatus?: boolean;
  /** Where the name links to; the public page by default. */
  href?: string;
  onTag?: (tag: string) => void;
}

export function SkillCard({ skill, showStatus = false, href, onTag }: SkillCardProps) {
  const highlights = 'highlights' in skill ? skill.highlights : undefined;
  return (
    <article className="card skill-card" aria-labelledby={`skill-${skill.id}`}>
      <div className="skill-card-head">
        <h3 className="skill-card-title" id={`skill-${skill.id}`}>
          <Link to={href ?? skillHref(skill)}>
            <Highlighted text={skill.name} spans={highlights?.name} />
          </Link>
        </h3>
        <div className="badges">
          {showStatus && <StatusBadge status={skill.status} />}
          {showStatus && 'hidden' in skill && skill.hidden && <HiddenBadge />}
          {skill.private && <PrivateBadge />}
          {skill.featured && <FeaturedBadge />}
        </div>
      </div>
      <p className="skill-card-slug">
        <code className="full-name">{skill.full_name}</code> <span aria-hidden="true">·</span> by <SkillOwner owner={skill.owner} />
      </p>
      <p className="skill-card-description">
        {skill.description ? (
          <Highlighted text={skill.description} spans={highlights?.description} />
        ) : (
          <span className="muted">No description.</span>
        )}
      </p>
      {skill.tags.length > 0 && (
        <ul className="tags" aria-label="Tags">
          {skill.tags.map((tag) => (
            <li key={tag}>
              {onTag ? (
                <button type="button" className="tag tag-button" onClick={() => onTag(tag)} aria-label={`Filter by tag ${tag}`}>
                  {tag}
                </button>
              ) : (
                <span className="tag">{tag}</span>
              )}
            </li>
          ))}
        </ul>
      )}
      <dl className="skill-card-meta">
        <div>
          <dt>Latest</dt>
          <dd>{skill.latest_version ? `v${skill.latest_version}` : <span className="muted">no version</span>}</dd>
        </div>
        <div>
          <dt>Downloads</dt>
          <dd>{formatCompact(skill.downloads)}</dd>
        </div>
        <div>
          <dt>Updated</dt>
          <dd>
            <time dateTime={skill.updated_at}>{formatRelative(skill.updated_at)}</time>
          </dd>
        </div>
      </dl>
    </article>
  );
}
