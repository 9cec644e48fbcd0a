import { useState } from 'react';
import { useEffect } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { ApiError } from '../api/client';
import { orgs, skills, versions as versionApi } from '../api/endpoints';
import type { Skill, UpdateSkillInput } from '../api/types';
import { FeaturedBadge, HiddenBadge, PrivateBadge, StatusBadge } from '../components/Badges';
import { ConfirmDialog } from '../components/Dialog';
import { PageHeader } from '../components/Layout';
import { useNotify } from '../components/Notices';
import { FeedbackList } from '../components/skill/FeedbackList';
import { OwnerScans } from '../components/skill/OwnerScans';
import { SkillForm, fieldsOf, type SkillFields } from '../components/SkillForm';
import { SkillOwner } from '../components/SkillOwner';
import { SkillSettings } from '../components/SkillSettings';
import { ErrorMessage, Loading } from '../components/States';
import { UploadVersion } from '../components/UploadVersion';
import { usePageTitle } from '../hooks/usePageTitle';
import { useResource } from '../hooks/useResource';
import { formatDateTime } from '../lib/format';
import { manageHref, skillHref, useSkillRef } from '../lib/names';
import { splitTags } from '../lib/rules';
import { useSession } from '../session/session';

const TABS = [
  { id: 'upload', label: 'Upload a version' },
  { id: 'security', label: 'Versions and scans' },
  { id: 'details', label: 'Details' },
  { id: 'feedback', label: 'Feedback' },
  { id: 'settings', label: 'Name and owner' },
  { id: 'delete', label: 'Delete' },
] as const;
type TabId = (typeof TABS)[number]['id'];

/** Only the fields that changed, so an edit never rewrites what it did not touch. */
function changes(before: SkillFields, after: SkillFields): UpdateSkillInput {
  const out: UpdateSkillInput = {};
  if (after.name.trim() !== before.name) out.name = after.name.trim();
  if (after.description.trim() !== before.description) out.description = after.description.trim();
  if (after.category.trim() !== before.category) out.category = after.category.trim() === '' ? null : after.category.trim();
  const tags = [...new Set(splitTags(after.tags).map((t) => t.toLowerCase()))];
  if (tags.join(',') !== splitTags(before.tags).join(',')) out.tags = tags;
  const url = after.source_url.trim() === '' ? null : after.source_url.trim();
  if (after.source_type !== before.source_type || url !== (before.source_url === '' ? null : before.source_url)) {
    out.source_type = after.source_type;
    out.source_url = url;
  }
  return out;
}

/** The owner's view of one skill: upload versions, edit metadata, read feedback, delete a draft. */
export function ManageSkillPage() {
  // `pdf-tools` or `@acme/pdf-tools`.
  const slug = useSkillRef();
  const { user } = useSession();
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const notify = useNotify();
  const { resource, reload, setData } = useResource((signal) => skills.get(slug, signal), [slug]);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [uploads, setUploads] = useState(0);
  // Whether there are versions at all: a skill whose every version is quarantined has no latest version.
  const versionCount = useResource((signal) => versionApi.list(slug, 1, signal), [slug, uploads]).resource.data?.total;
  const skill = resource.data;
  usePageTitle(skill ? `Manage ${skill.name}` : 'Manage skill');
  const tab: TabId = TABS.find((t) => t.id === params.get('tab'))?.id ?? 'upload';
  const ownerOrg = skill?.owner.kind === 'organisation' ? skill.owner.handle : null;
  const org = useResource((signal) => (ownerOrg ? orgs.get(ownerOrg, signal) : Promise.resolve(null)), [ownerOrg]).resource.data;
  // Offering, renaming and privacy are for the owning user, or an owner or admin of the owning organisation.
  const mayMove = skill
    ? skill.owner.kind === 'user'
      ? skill.owner.id === user?.id
      : org?.role === 'owner' || org?.role === 'admin'
    : false;

  // Reached by an old name or the id: the address bar shows the skill's name now.
  const current = resource.status === 'ready' ? resource.data.full_name : undefined;
  useEffect(() => {
    if (current !== undefined && current !== slug) navigate(manageHref({ full_name: current }, window.location.search), { replace: true });
  }, [current, slug]);

  if (resource.status === 'error' && !skill) {
    const missing = resource.error instanceof ApiError && resource.error.status === 404;
    return (
      <>
        <PageHeader title={missing ? 'Skill not found' : 'This skill could not be loaded'} />
        <ErrorMessage error={resource.error} retry={missing ? undefined : reload} />
        <p>
          <Link to="/me/skills">Back to my skills</Link>
        </p>
      </>
    );
  }
  if (!skill) return <Loading label="Loading skill…" />;

  async function save(fields: SkillFields) {
    const patch = changes(fieldsOf(skill!), fields);
    if (Object.keys(patch).length === 0) {
      notify('Nothing changed.', 'info');
      return;
    }
    const updated = await skills.update(skill!.full_name, patch);
    setData(() => updated);
    notify('Details saved.');
  }

  async function remove() {
    await skills.remove(skill!.full_name);
    notify(`“${skill!.name}” deleted.`);
    navigate('/me/skills', { replace: true });
  }

  return (
    <>
      <PageHeader
        title={skill.name}
        subtitle={
          <>
            <Link to="/me/skills">My skills</Link> <span aria-hidden="true">/</span> <code className="full-name">{skill.full_name}</code>{' '}
            <span className="muted">by</span> <SkillOwner owner={skill.owner} />
          </>
        }
        actions={
          <Link className="button" to={skillHref(skill)}>
            View skill page
          </Link>
        }
      >
        <div className="badges">
          <StatusBadge status={skill.status} />
          {skill.private && <PrivateBadge />}
          {skill.hidden && <HiddenBadge />}
          {skill.featured && <FeaturedBadge />}
          <span className="muted small">
            {skill.latest_version
              ? `Latest v${skill.latest_version}`
              : versionCount
                ? 'No installable version: every version is quarantined'
                : 'No version yet'}
          </span>
        </div>
      </PageHeader>
      {skill.hidden && (
        <div className="alert alert-warning">
          This skill is hidden pending review: people reported it, and only you and administrators can see it until an administrator
          resolves the reports.
        </div>
      )}
      {skill.declined && (
        <div className="alert alert-warning declined-notice" role="region" aria-label="Changes requested by a reviewer">
          <p className="alert-title">Changes requested by a reviewer</p>
          <p className="preserve-lines">{skill.declined.reason}</p>
          <p className="small">
            Declined {formatDateTime(skill.declined.at)}. Upload a new version with these changes to send the skill back for review.
          </p>
        </div>
      )}
      {skill.status === 'draft' && !skill.declined && (
        <div className="alert alert-info">
          Drafts are visible only to you and administrators.{' '}
          {skill.latest_version || versionCount
            ? 'An administrator reviews and publishes it.'
            : 'Upload a first version so an administrator can review it.'}
        </div>
      )}
      <nav aria-label="Manage sections" className="tabs">
        <ul>
          {TABS.map((t) => (
            <li key={t.id}>
              <Link
                to={`?tab=${t.id}`}
                replace
                aria-current={tab === t.id ? 'page' : undefined}
                className={tab === t.id ? 'tab active' : 'tab'}
                onClick={(e) => {
                  e.preventDefault();
                  setParams({ tab: t.id }, { replace: true });
                }}
              >
                {t.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <section className="tab-panel card" aria-label={TABS.find((t) => t.id === tab)?.label}>
        {tab === 'upload' && (
          <UploadVersion
            slug={skill.full_name}
            latest={skill.latest_version}
            onUploaded={() => {
              reload();
              setUploads((n) => n + 1);
            }}
          />
        )}
        {tab === 'security' && <OwnerScans slug={skill.full_name} />}
        {tab === 'details' && <SkillForm key={skill.updated_at} skill={skill} submitLabel="Save details" onSubmit={save} />}
        {tab === 'feedback' && <FeedbackList slug={skill.full_name} />}
        {tab === 'settings' && (
          <SkillSettings
            key={skill.full_name}
            skill={skill}
            mayMove={mayMove}
            onChange={(updated) => {
              setData(() => updated);
              if (updated.full_name !== skill.full_name) navigate(manageHref(updated, '?tab=settings'), { replace: true });
            }}
          />
        )}
        {tab === 'delete' && <DeletePanel skill={skill} onDelete={() => setConfirmDelete(true)} />}
      </section>
      <ConfirmDialog
        open={confirmDelete}
        title={`Delete “${skill.name}”?`}
        confirmLabel="Delete draft"
        tone="danger"
        onConfirm={remove}
        onClose={() => setConfirmDelete(false)}
      >
        <p>The draft, its versions and their packages are removed for good. The name {skill.full_name} becomes free again.</p>
      </ConfirmDialog>
    </>
  );
}

function DeletePanel({ skill, onDelete }: { skill: Skill; onDelete: () => void }) {
  if (skill.status !== 'draft') {
    return (
      <p>
        Only drafts can be deleted. This skill is {skill.status};{' '}
        {skill.status === 'published' ? 'an administrator can deprecate it instead.' : 'it is already hidden from the public.'}
      </p>
    );
  }
  return (
    <div className="danger-zone">
      <p>Deleting a draft removes it with all its versions. This cannot be undone.</p>
      <button type="button" className="button button-danger" onClick={onDelete}>
        Delete this draft
      </button>
    </div>
  );
}
