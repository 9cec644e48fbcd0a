import { Link } from 'react-router-dom';
import type { SkillOwner as Owner } from '../api/types';
import { orgHref } from '../lib/names';

/** Who owns a skill, said in words: a user by name, or an organisation linked to its page. */
export function SkillOwner({ owner, link = true }: { owner: Owner; link?: boolean }) {
  if (owner.kind === 'organisation') {
    return (
      <span className="owner owner-org">
        <span className="owner-kind">organisation</span>{' '}
        {link ? <Link to={orgHref(owner.handle)}>@{owner.handle}</Link> : <span>@{owner.handle}</span>}
      </span>
    );
  }
  return (
    <span className="owner owner-user">
      <span className="owner-kind">user</span> {owner.handle}
    </span>
  );
}

/** A skill's whole name as code: `pdf-tools` or `@acme/pdf-tools`. */
export function FullName({ skill }: { skill: { full_name: string } }) {
  return <code className="full-name">{skill.full_name}</code>;
}
