import { Link } from 'react-router-dom';
import type { Skill } from '../../api/types';
import { FeaturedBadge, HiddenBadge, PrivateBadge, StatusBadge } from '../../components/Badges';
import { ModerationActions } from '../../components/skill/ModerationActions';
import { SkillOwner } from '../../components/SkillOwner';
import { formatDate, formatNumber } from '../../lib/format';
import { skillHref } from '../../lib/names';

/** Skills with their moderation actions, one row each; a row links to the skill page to review it. */
export function SkillModerationTable({
  skills,
  onChange,
  caption,
}: {
  skills: Skill[];
  onChange: (skill: Skill) => void;
  caption: string;
}) {
  return (
    <div className="table-scroll">
      <table className="table moderation-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Skill</th>
            <th scope="col">Owner</th>
            <th scope="col">Status</th>
            <th scope="col">Latest</th>
            <th scope="col" className="num">
              Downloads
            </th>
            <th scope="col">Updated</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {skills.map((skill) => (
            <tr key={skill.id}>
              <th scope="row">
                <Link to={skillHref(skill)}>{skill.name}</Link>
                <div className="muted small">{skill.full_name}</div>
              </th>
              <td>
                <SkillOwner owner={skill.owner} />
              </td>
              <td>
                <div className="badges">
                  <StatusBadge status={skill.status} />
                  {skill.private && <PrivateBadge />}
                  {skill.hidden && <HiddenBadge />}
                  {skill.featured && <FeaturedBadge />}
                </div>
              </td>
              <td>
                {skill.latest_version ? (
                  <span>
                    v{skill.latest_version}{' '}
                    <Link className="small" to={skillHref(skill, '?tab=files')}>
                      files
                    </Link>
                  </span>
                ) : (
                  <span className="muted">none</span>
                )}
              </td>
              <td className="num">{formatNumber(skill.downloads)}</td>
              <td className="nowrap">{formatDate(skill.updated_at)}</td>
              <td>
                <ModerationActions skill={skill} onChange={onChange} compact />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
