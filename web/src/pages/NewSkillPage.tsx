import { Link, useNavigate } from 'react-router-dom';
import { skills } from '../api/endpoints';
import { PageHeader } from '../components/Layout';
import { useNotify } from '../components/Notices';
import { SkillForm, type SkillFields } from '../components/SkillForm';
import { usePageTitle } from '../hooks/usePageTitle';
import { splitTags } from '../lib/rules';

export function NewSkillPage() {
  usePageTitle('New skill');
  const navigate = useNavigate();
  const notify = useNotify();

  async function create(fields: SkillFields) {
    const skill = await skills.create({
      name: fields.name.trim(),
      slug: fields.slug.trim() === '' ? undefined : fields.slug.trim(),
      description: fields.description.trim() === '' ? undefined : fields.description.trim(),
      category: fields.category.trim() === '' ? undefined : fields.category.trim(),
      tags: splitTags(fields.tags),
      source_type: fields.source_type,
      source_url: fields.source_url.trim() === '' ? null : fields.source_url.trim(),
    });
    notify(`Draft “${skill.name}” created. Upload its first version next.`);
    navigate(`/me/skills/${encodeURIComponent(skill.slug)}?tab=upload`);
  }

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
        <SkillForm skill={null} submitLabel="Create draft" onSubmit={create} onCancel={() => navigate('/me/skills')} />
      </div>
    </div>
  );
}
