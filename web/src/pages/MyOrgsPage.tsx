import { useState, type SubmitEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { USERNAME_PATTERN } from '@skill-registry/rules/account-fields';
import { ApiError } from '../api/client';
import { orgs } from '../api/endpoints';
import type { Invitation } from '../api/types';
import { TextField } from '../components/Field';
import { PageHeader } from '../components/Layout';
import { useNotify } from '../components/Notices';
import { RoleBadge } from '../components/OrgBadges';
import { EmptyState, ErrorMessage, Loading } from '../components/States';
import { useAction } from '../hooks/useAction';
import { usePageTitle } from '../hooks/usePageTitle';
import { useResource } from '../hooks/useResource';
import { formatDate } from '../lib/format';
import { orgHref } from '../lib/names';

/** The caller's organisations with their role, a form to create one, and the invitations waiting for an answer. */
export function MyOrgsPage() {
  usePageTitle('My organisations');
  const { resource, reload } = useResource((signal) => orgs.mine(signal), []);
  const list = resource.data?.items;

  return (
    <>
      <PageHeader title="My organisations" subtitle="Organisations own skills together: their members publish and manage them by role." />
      <Invitations onAccepted={reload} />
      <div className="two-column">
        <section className="card" aria-labelledby="create-org-title">
          <h2 id="create-org-title">Create an organisation</h2>
          <CreateOrgForm />
        </section>
        <section aria-labelledby="orgs-title">
          <h2 id="orgs-title">Your organisations</h2>
          {resource.status === 'error' && <ErrorMessage error={resource.error} retry={reload} />}
          {!list && resource.status === 'loading' && <Loading label="Loading your organisations…" />}
          {list?.length === 0 && (
            <EmptyState title="You belong to no organisation">Create one, or accept an invitation when someone invites you.</EmptyState>
          )}
          {list && list.length > 0 && (
            <ul className="org-list">
              {list.map((org) => (
                <li key={org.id} className="card org-item">
                  <div>
                    <Link className="org-item-name" to={orgHref(org.handle)}>
                      {org.display_name}
                    </Link>
                    <div className="muted small">@{org.handle}</div>
                  </div>
                  {org.role && <RoleBadge role={org.role} />}
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </>
  );
}

function CreateOrgForm() {
  const navigate = useNavigate();
  const notify = useNotify();
  const [handle, setHandle] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const { busy, error, run } = useAction();
  // The registry's own handle rule (organisations share the usernames' namespace), checked as the person types.
  const trimmed = handle.trim().replace(/^@/, '').toLowerCase();
  const handleProblem =
    trimmed === ''
      ? 'Choose a handle: skills in its scope are named @handle/slug.'
      : USERNAME_PATTERN.test(trimmed)
        ? undefined
        : '2 to 39 of a-z, 0-9, "_" and "-", starting with a letter or digit.';
  const serverProblem =
    error instanceof ApiError && ['handle_taken', 'name_too_similar', 'name_reserved'].includes(error.code)
      ? error.problem.detail
      : undefined;

  function submit(event: SubmitEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (handleProblem) return;
    void run(async () => {
      const org = await orgs.create({ handle: trimmed, ...(displayName.trim() === '' ? {} : { display_name: displayName.trim() }) });
      notify(`Organisation @${org.handle} created; you are its owner.`);
      navigate(orgHref(org.handle));
    });
  }

  return (
    <form onSubmit={submit} noValidate>
      <TextField
        label="Handle"
        value={handle}
        onChange={(e) => setHandle(e.target.value)}
        error={(submitted || handle !== '' ? handleProblem : undefined) ?? serverProblem}
        placeholder="acme"
        hint="Shares one namespace with usernames. Skills in its scope are named @handle/slug."
        spellCheck={false}
        autoCapitalize="off"
        maxLength={100}
      />
      <TextField
        label="Display name"
        optional
        value={displayName}
        onChange={(e) => setDisplayName(e.target.value)}
        placeholder="Acme Corporation"
        hint="Shown beside the handle; the handle when empty."
        maxLength={1000}
      />
      {error !== null && !serverProblem && <ErrorMessage error={error} />}
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? 'Creating…' : 'Create organisation'}
      </button>
    </form>
  );
}

/** Invitations waiting for the caller's answer; nothing when none waits. */
function Invitations({ onAccepted }: { onAccepted: () => void }) {
  const { resource, reload, setData } = useResource((signal) => orgs.myInvitations(signal), []);
  const items = resource.data?.items ?? [];
  if (resource.status === 'error') return <ErrorMessage error={resource.error} retry={reload} title="Invitations could not be loaded" />;
  if (items.length === 0) return null;
  return (
    <section className="card answer-list" aria-labelledby="invitations-title">
      <h2 id="invitations-title" className="panel-title">
        Invitations
      </h2>
      <ul className="plain-list">
        {items.map((invitation) => (
          <InvitationItem
            key={invitation.id}
            invitation={invitation}
            onDone={(accepted) => {
              setData((current) => current && { items: current.items.filter((i) => i.id !== invitation.id) });
              if (accepted) onAccepted();
            }}
          />
        ))}
      </ul>
    </section>
  );
}

function InvitationItem({ invitation, onDone }: { invitation: Invitation; onDone: (accepted: boolean) => void }) {
  const notify = useNotify();
  const { busy, error, run } = useAction();
  return (
    <li className="answer-item" aria-label={`Invitation to @${invitation.organisation}`}>
      <div className="answer-text">
        <Link to={orgHref(invitation.organisation)}>@{invitation.organisation}</Link> invites you as <RoleBadge role={invitation.role} />
        {invitation.invited_by ? ` (from ${invitation.invited_by})` : ''}.{' '}
        <span className="muted small">Open until {formatDate(invitation.expires_at)}.</span>
      </div>
      <div className="answer-actions">
        <button
          type="button"
          className="button button-small button-primary"
          disabled={busy}
          onClick={() =>
            void run(async () => {
              const org = await orgs.accept(invitation.id);
              notify(`You joined @${org.handle}.`);
              onDone(true);
            })
          }
        >
          Accept <span className="visually-hidden">invitation to @{invitation.organisation}</span>
        </button>
        <button
          type="button"
          className="button button-small"
          disabled={busy}
          onClick={() =>
            void run(async () => {
              await orgs.decline(invitation.id);
              notify(`Invitation to @${invitation.organisation} declined.`);
              onDone(false);
            })
          }
        >
          Decline <span className="visually-hidden">invitation to @{invitation.organisation}</span>
        </button>
      </div>
      {error !== null && <ErrorMessage error={error} />}
    </li>
  );
}
