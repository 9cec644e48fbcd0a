import { useId, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { orgs, skills } from '../api/endpoints';
import { PageHeader } from '../components/Layout';
import { useNotify } from '../components/Notices';
import { SkillForm, type SkillFields } from '../components/SkillForm';
import { usePageTitle } from '../hooks/usePageTitle';
import { useResource } from '../hooks/useResource';
import { manageHref } from '../lib/names';
import { splitTags } from '../lib/rules';
import { useSession } from '../session/session';

/** Where a new skill is named: unscoped, the caller's own scope, or an organisation's (`org:` + handle). */
type ScopeValue = '' | 'me' | `org:${string}`;

export function NewSkillPage() {
  usePageTitle('New skill');
  const navigate = useNavigate();
  const notify = useNotify();
  const { user } = useSession();
  const id = useId();
  const memberships = useResource((signal) => orgs.mine(signal), []).resource.data?.items ?? [];
  const [scope, setScope] = useState<ScopeValue>('');
  const [isPrivate, setPrivate] = useState(false);
  const orgHandle = scope.startsWith('org:') ? scope.slice('org:'.length) : null;
  const scopeHandle = scope === 'me' ? (user?.username ?? null) : orgHandle;

  async function create(fields: SkillFields) {
    const skill = await skills.create({
      name: fields.name.trim(),
      slug: fields.slug.trim() === '' ? undefined : fields.slug.trim(),
      ...(scopeHandle ? { scope: scopeHandle } : {}),
      ...(orgHandle && isPrivate ? { private: true } : {}),
      description: fields.description.trim() === '' ? undefined : fields.description.trim(),
      category: fields.category.trim() === '' ? undefined : fields.category.trim(),
      tags: splitTags(fields.tags),
      source_type: fields.source_type,
      source_url: fields.source_url.trim() === '' ? null : fields.source_url.trim(),
    });
    notify(`Draft “${skill.name}” created as ${skill.full_name}. Upload its first version next.`);
    navigate(manageHref(skill, '?tab=upload'));
  }

  const scopeChoice = (
    <fieldset className="scope-choice">
      <legend>Scope</legend>
      <div className="choice-list">
        <label className="choice">
          <input type="radio" name={`${id}-scope`} checked={scope === ''} onChange={() => setScope('')} />
          <span>
            <span className="choice-label">Unscoped</span>
            <span className="choice-hint">Named by its slug alone, e.g. pdf-tools.</span>
          </span>
        </label>
        {user && (
          <label className="choice">
            <input type="radio" name={`${id}-scope`} checked={scope === 'me'} onChange={() => setScope('me')} />
            <span>
              <span className="choice-label">@{user.username}</span>
              <span className="choice-hint">Your own scope: @{user.username}/slug, owned by you.</span>
            </span>
          </label>
        )}
        {memberships.map((org) => (
          <label key={org.id} className="choice">
            <input
              type="radio"
              name={`${id}-scope`}
              checked={scope === `org:${org.handle}`}
              onChange={() => setScope(`org:${org.handle}`)}
            />
            <span>
              <span className="choice-label">@{org.handle}</span>
              <span className="choice-hint">
                {org.display_name !== org.handle ? `${org.display_name}: ` : ''}owned by the organisation, managed by its members.
              </span>
            </span>
          </label>
        ))}
      </div>
      {orgHandle && (
        <label className="choice private-choice">
          <input type="checkbox" checked={isPrivate} onChange={(e) => setPrivate(e.target.checked)} />
          <span>
            <span className="choice-label">Private</span>
            <span className="choice-hint">Only members of @{orgHandle} (and administrators) see it, even once published.</span>
          </span>
        </label>
      )}
    </fieldset>
  );

  return (
    <div className="narrow-wide">
      <PageHeader
        title="New skill"
        subtitle={
          <>
            A skill starts as a draft that only you and administrators see. Upload a package, and an administrator publishes it.{' '}
            <Link to="/me/skills">Back to my skills</Link>
          </>
        }
      />
      <div className="card form-card">
        <SkillForm
          skill={null}
          submitLabel="Create draft"
          onSubmit={create}
          onCancel={() => navigate('/me/skills')}
          scopeChoice={scopeChoice}
          scope={scopeHandle}
        />
      </div>
    </div>
  );
}
