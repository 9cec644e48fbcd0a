import { useId, useState, type SubmitEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { ApiError } from '../api/client';
import { orgs } from '../api/endpoints';
import type { Invitation, Member, Organisation, OrgHistoryEntry, OrgRole } from '../api/types';
import { ConfirmDialog } from '../components/Dialog';
import { SelectField, TextField } from '../components/Field';
import { PageHeader } from '../components/Layout';
import { useNotify } from '../components/Notices';
import { ROLE_LABEL, ROLE_MEANING, RoleBadge } from '../components/OrgBadges';
import { SkillCard } from '../components/SkillCard';
import { EmptyState, ErrorMessage, Loading } from '../components/States';
import { useAction } from '../hooks/useAction';
import { usePageTitle } from '../hooks/usePageTitle';
import { useResource } from '../hooks/useResource';
import { formatDate, formatDateTime, formatRelative, plural } from '../lib/format';
import { manageHref } from '../lib/names';
import { useSession } from '../session/session';

const ROLES: OrgRole[] = ['owner', 'admin', 'publisher'];

/**
 * An organisation: its skills (to members every state and the private ones, as the registry decides), and for
 * members its people, open invitations and history. Owners and admins change roles, remove members, invite and
 * withdraw invitations; every member may leave.
 */
export function OrgPage() {
  const { handle = '' } = useParams();
  const { user, isAdmin, epoch } = useSession();
  const { resource, reload, setData } = useResource((signal) => orgs.get(handle, signal), [handle, epoch]);
  const org = resource.data;
  usePageTitle(org ? `${org.display_name} (@${org.handle})` : `@${handle}`);
  // Counts the changes made on this page, so the history shows them without a reload.
  const [changes, setChanges] = useState(0);
  const changed = () => setChanges((n) => n + 1);

  if (resource.status === 'error' && !org) {
    const missing = resource.error instanceof ApiError && resource.error.status === 404;
    return (
      <>
        <PageHeader title={missing ? 'Organisation not found' : 'This organisation could not be loaded'} />
        <ErrorMessage error={resource.error} retry={missing ? undefined : reload} />
        <p>
          <Link to="/">Browse published skills</Link>
        </p>
      </>
    );
  }
  if (!org) return <Loading label="Loading organisation…" />;

  const member = org.role !== null;
  const manages = org.role === 'owner' || org.role === 'admin';

  return (
    <div className="org-page">
      <PageHeader
        title={org.display_name}
        subtitle={
          <>
            <code className="full-name">@{org.handle}</code>{' '}
            <span className="muted">· organisation · since {formatDate(org.created_at)}</span>
          </>
        }
        actions={
          member ? (
            <Link className="button button-primary" to="/me/skills/new">
              New skill
            </Link>
          ) : undefined
        }
      >
        {org.role && (
          <div className="badges">
            <span className="small muted">Your role:</span> <RoleBadge role={org.role} />
          </div>
        )}
      </PageHeader>
      {manages && <DisplayName org={org} onSaved={(updated) => setData(() => updated)} />}
      <OrgSkills org={org} member={member || isAdmin} />
      {(member || isAdmin) && user && (
        <div className="org-panels">
          <Members org={org} me={user.username} onLeft={reload} onChange={changed} />
          {manages && <Invitations org={org} onChange={changed} />}
          <History org={org} changes={changes} />
        </div>
      )}
    </div>
  );
}

function DisplayName({ org, onSaved }: { org: Organisation; onSaved: (org: Organisation) => void }) {
  const notify = useNotify();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState(org.display_name);
  const { busy, error, run } = useAction();
  if (!open) {
    return (
      <p className="small">
        <button type="button" className="button button-small button-ghost" onClick={() => setOpen(true)}>
          Change display name
        </button>
      </p>
    );
  }
  return (
    <form
      className="card inline-form org-rename"
      noValidate
      onSubmit={(event: SubmitEvent) => {
        event.preventDefault();
        void run(async () => {
          onSaved(await orgs.update(org.handle, { display_name: name.trim() }));
          notify('Display name saved.');
          setOpen(false);
        });
      }}
    >
      <TextField
        label="Display name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        maxLength={1000}
        hint="The handle when empty."
      />
      {error !== null && <ErrorMessage error={error} />}
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save'}
        </button>
        <button type="button" className="button" onClick={() => setOpen(false)} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function OrgSkills({ org, member }: { org: Organisation; member: boolean }) {
  const { resource, reload } = useResource((signal) => orgs.skills(org.handle, { page_size: 48 }, signal), [org.handle, member]);
  const data = resource.data;
  return (
    <section aria-labelledby="org-skills-title" className="org-section">
      <h2 id="org-skills-title">Skills</h2>
      {member && <p className="small muted">As a member you see every state, and the private skills only members see.</p>}
      {resource.status === 'error' && <ErrorMessage error={resource.error} retry={reload} />}
      {!data && resource.status === 'loading' && <Loading label="Loading skills…" />}
      {data?.items.length === 0 && (
        <EmptyState title="No skills yet">
          {member
            ? 'Create a skill in the scope @' + org.handle + ' to publish it in the organisation’s name.'
            : 'Nothing is published here yet.'}
        </EmptyState>
      )}
      {data && data.items.length > 0 && (
        <>
          <p className="results-count">{plural(data.total, 'skill')}</p>
          <ul className="card-grid">
            {data.items.map((skill) => (
              <li key={skill.id}>
                <SkillCard skill={skill} showStatus={member} {...(org.role ? { href: manageHref(skill) } : {})} />
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function Members({ org, me, onLeft, onChange }: { org: Organisation; me: string; onLeft: () => void; onChange: () => void }) {
  const notify = useNotify();
  const navigate = useNavigate();
  const { resource, reload, setData } = useResource((signal) => orgs.members(org.handle, signal), [org.handle]);
  const [removing, setRemoving] = useState<Member | null>(null);
  const roleAction = useAction();
  const members = resource.data?.items;
  const mayEdit = (m: Member) => org.role === 'owner' || (org.role === 'admin' && m.role !== 'owner');
  const leaving = removing?.username === me;

  async function remove() {
    if (!removing) return;
    await orgs.removeMember(org.handle, removing.username);
    if (removing.username === me) {
      notify(`You left @${org.handle}.`);
      onLeft();
      navigate('/me/orgs');
      return;
    }
    setData((current) => current && { items: current.items.filter((m) => m.username !== removing.username) });
    onChange();
    notify(`${removing.username} removed from @${org.handle}.`);
  }

  return (
    <section aria-labelledby="members-title" className="card org-section">
      <h2 id="members-title">Members</h2>
      {resource.status === 'error' && <ErrorMessage error={resource.error} retry={reload} />}
      {!members && resource.status === 'loading' && <Loading label="Loading members…" />}
      {roleAction.error !== null && <ErrorMessage error={roleAction.error} />}
      {members && (
        <div className="table-scroll">
          <table className="table table-cards">
            <thead>
              <tr>
                <th scope="col">Member</th>
                <th scope="col">Role</th>
                <th scope="col">Since</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {members.map((m) => (
                <tr key={m.username}>
                  <th scope="row" data-label="Member">
                    {m.username}
                    {m.username === me && <span className="muted small"> (you)</span>}
                  </th>
                  <td data-label="Role">
                    {mayEdit(m) ? (
                      <select
                        aria-label={`Role of ${m.username}`}
                        value={m.role}
                        disabled={roleAction.busy}
                        onChange={(e) => {
                          const role = e.target.value as OrgRole;
                          void roleAction.run(async () => {
                            const updated = await orgs.setRole(org.handle, m.username, role);
                            setData((current) => current && { items: current.items.map((x) => (x.username === m.username ? updated : x)) });
                            notify(`${m.username} is now ${ROLE_LABEL[updated.role].toLowerCase()}.`);
                            onChange();
                          });
                        }}
                      >
                        {ROLES.filter((r) => org.role === 'owner' || r !== 'owner' || m.role === 'owner').map((r) => (
                          <option key={r} value={r}>
                            {ROLE_LABEL[r]}
                          </option>
                        ))}
                      </select>
                    ) : (
                      <RoleBadge role={m.role} />
                    )}
                  </td>
                  <td data-label="Since">
                    <time dateTime={m.since}>{formatDate(m.since)}</time>
                  </td>
                  <td className="actions">
                    {m.username === me ? (
                      <button type="button" className="button button-small button-danger-outline" onClick={() => setRemoving(m)}>
                        Leave
                      </button>
                    ) : (
                      mayEdit(m) && (
                        <button type="button" className="button button-small button-danger-outline" onClick={() => setRemoving(m)}>
                          Remove <span className="visually-hidden">{m.username}</span>
                        </button>
                      )
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={removing !== null}
        title={leaving ? `Leave @${org.handle}?` : `Remove ${removing?.username ?? ''} from @${org.handle}?`}
        confirmLabel={leaving ? 'Leave organisation' : 'Remove member'}
        tone="danger"
        onConfirm={remove}
        onClose={() => setRemoving(null)}
      >
        <p>
          {leaving
            ? 'You lose your role and no longer manage its skills, nor see its private ones. An owner or admin can invite you again.'
            : 'They lose their role and no longer manage its skills, nor see its private ones.'}
        </p>
      </ConfirmDialog>
    </section>
  );
}

function Invitations({ org, onChange }: { org: Organisation; onChange: () => void }) {
  const notify = useNotify();
  const id = useId();
  const { resource, reload, setData } = useResource((signal) => orgs.invitations(org.handle, signal), [org.handle]);
  const [username, setUsername] = useState('');
  const [role, setRole] = useState<OrgRole>('publisher');
  const [submitted, setSubmitted] = useState(false);
  const invite = useAction();
  const withdraw = useAction();
  const items = resource.data?.items;
  const problem = username.trim() === '' ? 'Type the username of the person to invite.' : undefined;

  function submit(event: SubmitEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (problem) return;
    void invite.run(async () => {
      const made = await orgs.invite(org.handle, { username: username.trim(), role });
      setData((current) => current && { items: [made, ...current.items.filter((i) => i.username !== made.username)] });
      notify(`${made.username} invited as ${ROLE_LABEL[made.role].toLowerCase()}.`);
      setUsername('');
      setSubmitted(false);
      onChange();
    });
  }

  function remove(invitation: Invitation) {
    void withdraw.run(async () => {
      await orgs.withdraw(org.handle, invitation.id);
      setData((current) => current && { items: current.items.filter((i) => i.id !== invitation.id) });
      notify(`Invitation of ${invitation.username} withdrawn.`);
      onChange();
    });
  }

  return (
    <section aria-labelledby={`${id}-title`} className="card org-section">
      <h2 id={`${id}-title`}>Invitations</h2>
      <form onSubmit={submit} noValidate>
        <div className="form-row">
          <TextField
            label="Username"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            error={submitted ? problem : undefined}
            spellCheck={false}
            autoCapitalize="off"
            maxLength={100}
          />
          <SelectField label="Role" value={role} onChange={(e) => setRole(e.target.value as OrgRole)} hint={ROLE_MEANING[role]}>
            {ROLES.filter((r) => org.role === 'owner' || r !== 'owner').map((r) => (
              <option key={r} value={r}>
                {ROLE_LABEL[r]}
              </option>
            ))}
          </SelectField>
        </div>
        {invite.error !== null && <ErrorMessage error={invite.error} />}
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={invite.busy}>
            {invite.busy ? 'Inviting…' : 'Invite'}
          </button>
        </div>
      </form>
      {resource.status === 'error' && <ErrorMessage error={resource.error} retry={reload} />}
      {withdraw.error !== null && <ErrorMessage error={withdraw.error} />}
      {items?.length === 0 && <p className="muted small">No open invitations.</p>}
      {items && items.length > 0 && (
        <ul className="plain-list invitation-list" aria-label="Open invitations">
          {items.map((invitation) => (
            <li key={invitation.id} className="answer-item">
              <div className="answer-text">
                <strong>{invitation.username}</strong> as <RoleBadge role={invitation.role} />{' '}
                <span className="muted small">
                  {invitation.invited_by ? `by ${invitation.invited_by}, ` : ''}open until {formatDate(invitation.expires_at)}
                </span>
              </div>
              <div className="answer-actions">
                <button type="button" className="button button-small" disabled={withdraw.busy} onClick={() => remove(invitation)}>
                  Withdraw <span className="visually-hidden">invitation of {invitation.username}</span>
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A role as the history records it, in words ("publisher" → "publisher"; an unknown value as written). */
function roleWord(value: string | null): string {
  return value !== null && value in ROLE_LABEL ? ROLE_LABEL[value as OrgRole].toLowerCase() : (value ?? '');
}

/** `username:role`, as the history records a member's role before or after a change. */
function memberRole(value: string | null): { username: string; role: string } {
  const [username = '', role = null] = (value ?? '').split(':');
  return { username, role: roleWord(role) };
}

/**
 * One history entry in words: who did what to whom, with the roles. The registry records an invitation and its answer
 * as (username, role), a role change as `username:role` before and after, a removal as `username:role` before.
 */
function describe(entry: OrgHistoryEntry): string {
  const actor = entry.actor ?? 'Someone';
  switch (entry.action) {
    case 'org.create':
      return `${actor} created the organisation`;
    case 'org.invite':
      return `${actor} invited ${entry.from ?? 'someone'} as ${roleWord(entry.to)}`;
    case 'org.invitation.accept':
      return `${actor} accepted the invitation and joined as ${roleWord(entry.to)}`;
    case 'org.invitation.decline':
      return `${actor} declined the invitation`;
    case 'org.invitation.withdraw':
      return `${actor} withdrew the invitation of ${entry.from ?? 'someone'}`;
    case 'org.role': {
      const before = memberRole(entry.from);
      return `${actor} changed the role of ${before.username} from ${before.role} to ${memberRole(entry.to).role}`;
    }
    case 'org.remove': {
      const before = memberRole(entry.from);
      return `${actor} removed ${before.username} (${before.role})`;
    }
    case 'org.leave':
      return `${actor} left (${memberRole(entry.from).role})`;
    default:
      return `${actor}: ${entry.action}`;
  }
}

function History({ org, changes }: { org: Organisation; changes: number }) {
  const { resource, reload } = useResource((signal) => orgs.history(org.handle, signal), [org.handle, changes]);
  const items = resource.data?.items;
  return (
    <section aria-labelledby="history-title" className="card org-section">
      <h2 id="history-title">History</h2>
      {resource.status === 'error' && <ErrorMessage error={resource.error} retry={reload} />}
      {!items && resource.status === 'loading' && <Loading label="Loading history…" />}
      {items?.length === 0 && <p className="muted small">Nothing has happened yet.</p>}
      {items && items.length > 0 && (
        <ol className="plain-list org-history">
          {items.map((entry, index) => (
            <li key={`${entry.at}-${index}`}>
              <time dateTime={entry.at} title={formatDateTime(entry.at)} className="muted small">
                {formatRelative(entry.at)}
              </time>{' '}
              {describe(entry)}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
