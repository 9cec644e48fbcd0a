import { useEffect } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { ApiError } from '../api/client';
import { orgs, skills, versions as versionApi } from '../api/endpoints';
import type { Skill, SkillNameHistory, Version } from '../api/types';
import { FeaturedBadge, HiddenBadge, PrivateBadge, StatusBadge, VerdictBadge } from '../components/Badges';
import { ClampedText } from '../components/ClampedText';
import { CopyButton } from '../components/CopyButton';
import { PageHeader } from '../components/Layout';
import { FeedbackForm } from '../components/skill/FeedbackForm';
import { FeedbackList } from '../components/skill/FeedbackList';
import { FilesPanel } from '../components/skill/FilesPanel';
import { ModerationActions } from '../components/skill/ModerationActions';
import { QuarantineNotice } from '../components/skill/QuarantineNotice';
import { ReadmePanel } from '../components/skill/ReadmePanel';
import { ReportSkill } from '../components/skill/ReportSkill';
import { ScanPanel } from '../components/skill/ScanPanel';
import { StatsPanel } from '../components/skill/StatsPanel';
import { VersionsPanel } from '../components/skill/VersionsPanel';
import { SkillOwner } from '../components/SkillOwner';
import { SourceLink } from '../components/SourceLink';
import { EmptyState, ErrorMessage, Loading } from '../components/States';
import { usePageTitle } from '../hooks/usePageTitle';
import { useResource } from '../hooks/useResource';
import { formatBytes, formatDate, formatNumber } from '../lib/format';
import { installCommands } from '../lib/install';
import { manageHref, namePath, skillHref, useSkillRef } from '../lib/names';
import { useSession } from '../session/session';

const TABS = [
  { id: 'readme', label: 'Overview' },
  { id: 'files', label: 'Files' },
  { id: 'versions', label: 'Versions' },
  { id: 'security', label: 'Security' },
  { id: 'stats', label: 'Downloads' },
  { id: 'feedback', label: 'Feedback' },
] as const;
type TabId = (typeof TABS)[number]['id'];

function tabParam(value: string | null): TabId {
  return TABS.find((t) => t.id === value)?.id ?? 'readme';
}

/** One skill: what it is, its SKILL.md, files, versions, downloads over time and feedback. */
export function SkillPage() {
  // `pdf-tools` or `@acme/pdf-tools`: every call below names the skill so.
  const slug = useSkillRef();
  const [params] = useSearchParams();
  const { state: session, user, isAdmin, epoch } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const tab = tabParam(params.get('tab'));

  const skillHandle = useResource((signal) => skills.get(slug, signal), [slug, epoch]);
  const versionsHandle = useResource((signal) => versionApi.list(slug, 1, signal), [slug, epoch]);
  const namesHandle = useResource((signal) => skills.names(slug, signal), [slug, epoch]);
  const skill = skillHandle.resource.data;
  const versionList = versionsHandle.resource.data?.items ?? [];
  const selected = params.get('version') ?? skill?.latest_version ?? versionList[0]?.version ?? null;
  const version = versionList.find((v) => v.version === selected);
  const filesHandle = useResource(
    (signal) => (selected && skill ? versionApi.files(slug, selected, signal) : Promise.resolve(null)),
    [slug, selected, skill?.id, epoch],
  );
  usePageTitle(skill?.name ?? slug);
  // An organisation's member manages its skills by their role; the organisation says the caller's.
  const ownerOrg = skill?.owner.kind === 'organisation' ? skill.owner.handle : null;
  const orgHandle = useResource(
    (signal) => (ownerOrg && user ? orgs.get(ownerOrg, signal) : Promise.resolve(null)),
    [ownerOrg, user?.id, epoch],
  );

  // A skill asked for by a name it had before (the API followed its 308) or by its id: the address bar shows its name now.
  // Only a finished load counts: while the next skill loads, the previous one is still shown.
  const current = skillHandle.resource.status === 'ready' ? skillHandle.resource.data.full_name : undefined;
  useEffect(() => {
    if (current !== undefined && current !== slug) navigate(`${skillHref({ full_name: current })}${location.search}`, { replace: true });
  }, [current, slug]);

  /** A link to this page with some query parameters changed. */
  function href(changes: Record<string, string | null>): string {
    const next = new URLSearchParams(params);
    for (const [name, value] of Object.entries(changes)) {
      if (value === null) next.delete(name);
      else next.set(name, value);
    }
    const query = next.toString();
    return `/skills/${namePath(slug)}${query ? `?${query}` : ''}`;
  }
  const fileHref = (path: string) => href({ tab: 'files', file: path });
  const versionHref = (v: string) => href({ version: v === skill?.latest_version ? null : v, file: null });

  if (skillHandle.resource.status === 'error' && !skill) {
    const error = skillHandle.resource.error;
    const missing = error instanceof ApiError && error.status === 404;
    return (
      <>
        <PageHeader title={missing ? 'Skill not found' : 'This skill could not be loaded'} />
        <ErrorMessage error={error} retry={missing ? undefined : skillHandle.reload} />
        <p>
          <Link to="/">Browse published skills</Link>
        </p>
      </>
    );
  }
  if (!skill) return <Loading label="Loading skill…" />;

  const isOwner = user !== null && (user.id === skill.owner.id || (orgHandle.resource.data?.role ?? null) !== null);
  const canDownload = skill.status === 'published' || isAdmin;
  // A quarantined (malicious) version goes to its owner and administrators only; nobody else is offered it.
  const mayDownload = (v: Version) => canDownload && (v.scan?.verdict !== 'malicious' || isOwner || isAdmin);
  const downloadHref = (v: Version) => (mayDownload(v) ? versionApi.downloadUrl(slug, v.version) : null);
  // Without a latest version (every version quarantined), the newest one speaks for the skill.
  const latest = versionList.find((v) => v.version === skill.latest_version) ?? versionList[0];
  const origin = window.location.origin;

  return (
    <div className="skill-page">
      <PageHeader
        title={skill.name}
        subtitle={skill.description ? <ClampedText text={skill.description} /> : undefined}
        actions={
          <>
            {(isOwner || isAdmin) && (
              <Link className="button" to={manageHref(skill)}>
                Manage
              </Link>
            )}
            {user && !isOwner && <ReportSkill slug={skill.full_name} name={skill.name} />}
            {session.status === 'anonymous' && (
              <p className="small muted sign-in-hint">
                <Link to={`/signin?next=${encodeURIComponent(`${location.pathname}?${withReport(location.search)}`)}`}>Sign in</Link> to
                report this skill.
              </p>
            )}
          </>
        }
      >
        <div className="badges">
          {skill.status !== 'published' && <StatusBadge status={skill.status} />}
          {skill.private && <PrivateBadge />}
          {skill.hidden && <HiddenBadge />}
          {skill.featured && <FeaturedBadge />}
          {latest && (
            <Link className="badge-link" to={href({ tab: 'security', version: null, file: null, days: null })}>
              <VerdictBadge scan={latest.scan} prefix />
            </Link>
          )}
          <span className="small skill-name-line">
            <code className="full-name">{skill.full_name}</code> <span className="muted">by</span> <SkillOwner owner={skill.owner} />
          </span>
        </div>
        <FormerNames history={namesHandle.resource.data} />
      </PageHeader>

      {skill.status === 'draft' && (
        <div className="alert alert-info">
          This skill is a draft: only its owner and administrators can see it.{' '}
          {isAdmin ? 'Review it and publish it when it is ready.' : 'An administrator publishes it after review.'}
        </div>
      )}
      {skill.hidden && (
        <div className="alert alert-warning">
          This skill is hidden pending review: enough people reported it that only its owner and administrators can see it until an
          administrator resolves the reports.
        </div>
      )}
      {skill.status === 'deprecated' && (
        <div className="alert alert-warning">This skill is deprecated: it is hidden from search and cannot be downloaded publicly.</div>
      )}

      <div className="skill-layout">
        <div className="skill-main">
          <nav aria-label="Skill sections" className="tabs">
            <ul>
              {TABS.map((t) => (
                <li key={t.id}>
                  <Link
                    to={href({ tab: t.id === 'readme' ? null : t.id, file: null, days: null })}
                    aria-current={tab === t.id ? 'page' : undefined}
                    className={tab === t.id ? 'tab active' : 'tab'}
                    replace
                  >
                    {t.label}
                    {t.id === 'versions' && versionsHandle.resource.data ? (
                      <span className="tab-count">{versionsHandle.resource.data.total}</span>
                    ) : null}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <section className="tab-panel" aria-label={TABS.find((t) => t.id === tab)?.label}>
            {renderTab()}
          </section>
        </div>
        <aside className="skill-aside" aria-label="About this skill">
          {versionList.length > 0 && selected && (
            <div className="aside-block">
              {versionList.length > 1 && (
                <div className="field">
                  <label htmlFor="version-select">Version</label>
                  {renderVersionSelect()}
                </div>
              )}
              {version && (
                <p className="small">
                  Scan: <VerdictBadge scan={version.scan} />{' '}
                  <Link to={href({ tab: 'security', file: null, days: null })}>Security report</Link>
                </p>
              )}
              {version?.scan?.verdict === 'malicious' && <QuarantineNotice canDownload={mayDownload(version)} />}
              {version && mayDownload(version) ? (
                <>
                  <a className="button button-primary button-block" href={versionApi.downloadUrl(slug, version.version)} download>
                    Download v{version.version}
                    <span className="button-note">
                      {formatBytes(version.size)} {version.archive_format}
                    </span>
                  </a>
                  <div className="install">
                    {installCommands(
                      origin,
                      skill.full_name,
                      version,
                      version.version === skill.latest_version,
                      versionApi.downloadUrl(skill.full_name, version.version),
                      skill.private,
                    ).map((c) => (
                      <div key={c.id} className="install-command">
                        <p className="small muted">{c.label}:</p>
                        <div className="command">
                          <code>{c.command}</code>
                          <CopyButton text={c.command} name={`Copy: ${c.command}`} />
                        </div>
                        {c.note && <p className="small">{c.note}</p>}
                      </div>
                    ))}
                  </div>
                </>
              ) : (
                !canDownload && <p className="small muted">Downloads open once an administrator publishes this skill.</p>
              )}
            </div>
          )}
          <SkillFacts skill={skill} />
          {isAdmin && (
            <div className="aside-block">
              <h2 className="aside-title">Moderation</h2>
              <ModerationActions skill={skill} onChange={(updated) => skillHandle.setData(() => updated)} />
            </div>
          )}
        </aside>
      </div>
    </div>
  );

  // Render helpers rather than nested components: a component declared inside this one would be a new
  // type on every render, and React would remount it (losing, say, a half-written comment).
  function renderVersionSelect() {
    return (
      <select id="version-select" value={selected ?? ''} onChange={(e) => navigate(versionHref(e.target.value))}>
        {versionList.map((v) => (
          <option key={v.version} value={v.version}>
            v{v.version}
            {v.version === skill?.latest_version ? ' (latest)' : ''}
          </option>
        ))}
      </select>
    );
  }

  function renderTab() {
    if (!skill) return null;
    if (tab === 'stats') return <StatsPanel slug={skill.full_name} />;
    if (tab === 'feedback') {
      return (
        <>
          {skill.status === 'published' ? (
            <>
              <h2 className="panel-title">Rate this skill</h2>
              <FeedbackForm slug={skill.full_name} versions={versionList} selectedVersion={params.get('version')} />
            </>
          ) : (
            <p className="muted">Feedback opens once the skill is published.</p>
          )}
          {(isOwner || isAdmin) && (
            <>
              <h2 className="panel-title">Feedback received</h2>
              <FeedbackList slug={skill.full_name} />
            </>
          )}
        </>
      );
    }
    if (versionsHandle.resource.status === 'error')
      return <ErrorMessage error={versionsHandle.resource.error} retry={versionsHandle.reload} />;
    if (!versionsHandle.resource.data) return <Loading label="Loading versions…" />;
    if (tab === 'versions')
      return (
        <VersionsPanel
          versions={versionList}
          selected={selected}
          versionHref={versionHref}
          downloadHref={downloadHref}
          securityHref={(v) => href({ tab: 'security', version: v === skill.latest_version ? null : v, file: null })}
        />
      );
    if (versionList.length === 0) {
      return (
        <EmptyState
          title="No versions yet"
          action={
            isOwner || isAdmin ? (
              <Link className="button button-primary" to={manageHref(skill, '?tab=upload')}>
                Upload a version
              </Link>
            ) : undefined
          }
        >
          {isOwner ? 'Upload a package to give this skill its first version.' : 'Its publisher has not uploaded a package yet.'}
        </EmptyState>
      );
    }
    if (!version) return <EmptyState title={`There is no version ${selected ?? ''}`} />;
    if (tab === 'security') return <ScanPanel slug={skill.full_name} version={version} canDownload={mayDownload(version)} />;
    if (filesHandle.resource.status === 'error') return <ErrorMessage error={filesHandle.resource.error} retry={filesHandle.reload} />;
    const files = filesHandle.resource.data;
    if (!files) return <Loading label="Loading files…" />;
    if (tab === 'files')
      return (
        <FilesPanel slug={skill.full_name} version={version.version} files={files} selected={params.get('file')} fileHref={fileHref} />
      );
    return <ReadmePanel slug={skill.full_name} version={version} files={files} fileHref={fileHref} />;
  }
}

/** The page's query with the report dialog asked for, so signing in brings the visitor back to it. */
function withReport(search: string): string {
  const params = new URLSearchParams(search);
  params.set('report', '1');
  return params.toString();
}

/** How many earlier names the header lists; the rest would crowd it, and the newest say the most. */
const FORMER_NAMES_SHOWN = 3;

/** Who renamed a skill, in words: a user by name, an organisation (whose members are private to it) by its handle. */
function renamer(changedBy: NonNullable<SkillNameHistory['items'][number]['changed_by']>): string {
  return changedBy.kind === 'org' ? `a member of @${changedBy.handle}` : changedBy.username;
}

/** "Formerly named …": a renamed skill says what it was called, so a new name cannot pass it off as another skill. */
function FormerNames({ history }: { history: SkillNameHistory | undefined }) {
  if (!history || history.items.length === 0) return null;
  const shown = history.items.slice(0, FORMER_NAMES_SHOWN);
  const more = history.items.length - shown.length;
  return (
    <p className="small muted former-names">
      Formerly named{' '}
      {shown.map((item, index) => (
        <span key={`${item.until}-${index}`}>
          {index > 0 && ', '}“<bdi>{item.name}</bdi>” (until {formatDate(item.until)}
          {item.changed_by ? `, renamed by ${renamer(item.changed_by)}` : ''})
        </span>
      ))}
      {more > 0 && ` and ${more} more`}
    </p>
  );
}

function SkillFacts({ skill }: { skill: Skill }) {
  return (
    <dl className="facts">
      <div>
        <dt>Latest version</dt>
        <dd>{skill.latest_version ? `v${skill.latest_version}` : <span className="muted">none yet</span>}</dd>
      </div>
      <div>
        <dt>Downloads</dt>
        <dd>{formatNumber(skill.downloads)}</dd>
      </div>
      <div>
        <dt>Source</dt>
        <dd>
          <SourceLink skill={skill} />
        </dd>
      </div>
      <div>
        <dt>Owner</dt>
        <dd>
          <SkillOwner owner={skill.owner} />
        </dd>
      </div>
      {skill.category && (
        <div>
          <dt>Category</dt>
          <dd>
            <Link to={`/?category=${encodeURIComponent(skill.category)}`}>{skill.category}</Link>
          </dd>
        </div>
      )}
      {skill.tags.length > 0 && (
        <div>
          <dt>Tags</dt>
          <dd>
            <ul className="tags" aria-label="Tags">
              {skill.tags.map((tag) => (
                <li key={tag}>
                  <Link className="tag tag-button" to={`/?tags=${encodeURIComponent(tag)}`}>
                    {tag}
                  </Link>
                </li>
              ))}
            </ul>
          </dd>
        </div>
      )}
      <div>
        <dt>{skill.published_at ? 'Published' : 'Created'}</dt>
        <dd>{formatDate(skill.published_at ?? skill.created_at)}</dd>
      </div>
      <div>
        <dt>Updated</dt>
        <dd>{formatDate(skill.updated_at)}</dd>
      </div>
    </dl>
  );
}
