import { useId, useState, type SubmitEvent } from 'react';
import { apiKeys } from '../api/endpoints';
import type { ApiKey, ApiKeyCreated } from '../api/types';
import { CopyButton } from '../components/CopyButton';
import { ConfirmDialog } from '../components/Dialog';
import { SelectField, TextField } from '../components/Field';
import { PageHeader } from '../components/Layout';
import { useNotify } from '../components/Notices';
import { EmptyState, ErrorMessage, Loading } from '../components/States';
import { usePageTitle } from '../hooks/usePageTitle';
import { useResource } from '../hooks/useResource';
import { formatDate, formatDateTime, formatRelative } from '../lib/format';

const EXPIRY = [
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
  { value: '', label: 'Never' },
];

/** API keys for scripts and CI: create (the secret is shown once), list, revoke. */
export function ApiKeysPage() {
  usePageTitle('API keys');
  const { resource, reload, setData } = useResource((signal) => apiKeys.list(signal), []);
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const notify = useNotify();
  const keys = resource.data?.items;

  async function revoke() {
    if (!revoking) return;
    await apiKeys.revoke(revoking.id);
    setData((current) => current && { items: current.items.filter((k) => k.id !== revoking.id) });
    if (created?.id === revoking.id) setCreated(null);
    notify(`Key “${revoking.name}” revoked.`);
  }

  return (
    <>
      <PageHeader title="API keys" subtitle="Keys let scripts and CI call the API as you. Send one as Authorization: Bearer <key>." />
      <div className="two-column">
        <section className="card" aria-labelledby="create-key-title">
          <h2 id="create-key-title">Create a key</h2>
          <CreateKeyForm
            onCreated={(key) => {
              setCreated(key);

              const { key: secret, ...listed } = key;
              setData((current) => current && { items: [listed, ...current.items] });
            }}
          />
        </section>
        <section aria-labelledby="keys-title" className="keys-list">
          <h2 id="keys-title">Your keys</h2>
          {created && <NewSecret created={created} onDismiss={() => setCreated(null)} />}
          {resource.status === 'error' && <ErrorMessage error={resource.error} retry={reload} />}
          {!keys && resource.status === 'loading' && <Loading label="Loading keys…" />}
          {keys?.length === 0 && <EmptyState title="No keys yet">Create one to publish from a script or CI.</EmptyState>}
          {keys && keys.length > 0 && (
            <div className="table-scroll">
              <table className="table table-cards">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Key</th>
                    <th scope="col">Scopes</th>
                    <th scope="col">Last used</th>
                    <th scope="col">Expires</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {keys.map((key) => (
                    <tr key={key.id}>
                      <th scope="row" data-label="Name">
                        {key.name}
                      </th>
                      <td data-label="Key">
                        <code>{key.prefix}…</code>
                      </td>
                      <td data-label="Scopes">
                        {key.scopes.length > 0 ? key.scopes.join(', ') : <span className="muted">read only</span>}
                      </td>
                      <td data-label="Last used">
                        {key.last_used_at ? (
                          <time dateTime={key.last_used_at} title={formatDateTime(key.last_used_at)}>
                            {formatRelative(key.last_used_at)}
                          </time>
                        ) : (
                          <span className="muted">never</span>
                        )}
                      </td>
                      <td data-label="Expires">
                        {key.expires_at ? (
                          <time dateTime={key.expires_at}>{formatDate(key.expires_at)}</time>
                        ) : (
                          <span className="muted">never</span>
                        )}
                      </td>
                      <td className="actions">
                        <button type="button" className="button button-small button-danger-outline" onClick={() => setRevoking(key)}>
                          Revoke <span className="visually-hidden">{key.name}</span>
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      </div>
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke “${revoking?.name ?? ''}”?`}
        confirmLabel="Revoke key"
        tone="danger"
        onConfirm={revoke}
        onClose={() => setRevoking(null)}
      >
        <p>Anything using this key stops working at once. This cannot be undone.</p>
      </ConfirmDialog>
    </>
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (key: ApiKeyCreated) => void }) {
  const id = useId();
  const [name, setName] = useState('');
  const [upload, setUpload] = useState(true);
  const [expiry, setExpiry] = useState('90');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [submitted, setSubmitted] = useState(false);
  const nameProblem =
    name.trim() === ''
      ? 'Give the key a name, e.g. the machine or pipeline that uses it.'
      : name.trim().length > 100
        ? 'At most 100 characters.'
        : undefined;

  async function submit(event: SubmitEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (nameProblem) return;
    setBusy(true);
    setError(null);
    try {
      const key = await apiKeys.create({
        name: name.trim(),
        scopes: upload ? ['skill:upload'] : [],
        expires_in_days: expiry === '' ? null : Number(expiry),
      });
      onCreated(key);
      setName('');
      setSubmitted(false);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <TextField
        label="Name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={submitted ? nameProblem : undefined}
        placeholder="ci-release"
        maxLength={100}
      />
      <fieldset className="plain-fieldset">
        <legend>Scope</legend>
        <label className="choice">
          <input type="checkbox" checked={upload} onChange={(e) => setUpload(e.target.checked)} aria-describedby={`${id}-scope`} />
          <span>
            <span className="choice-label">skill:upload</span>
            <span className="choice-hint" id={`${id}-scope`}>
              Create skills, edit them and upload versions. Without it the key only reads your profile and call logs.
            </span>
          </span>
        </label>
      </fieldset>
      <SelectField label="Expires after" value={expiry} onChange={(e) => setExpiry(e.target.value)}>
        {EXPIRY.map((o) => (
          <option key={o.label} value={o.value}>
            {o.label}
          </option>
        ))}
      </SelectField>
      {error !== null && <ErrorMessage error={error} />}
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? 'Creating…' : 'Create key'}
      </button>
    </form>
  );
}

function NewSecret({ created, onDismiss }: { created: ApiKeyCreated; onDismiss: () => void }) {
  return (
    <div className="alert alert-success secret" role="status">
      <p className="alert-title">Key “{created.name}” created</p>
      <p>Copy it now: this is the only time the registry shows it. It keeps only a hash.</p>
      <div className="command">
        <code className="secret-value" data-testid="new-api-key">
          {created.key}
        </code>
        <CopyButton text={created.key} label="Copy key" />
      </div>
      <button type="button" className="button button-small button-ghost" onClick={onDismiss}>
        I have stored it
      </button>
    </div>
  );
}
