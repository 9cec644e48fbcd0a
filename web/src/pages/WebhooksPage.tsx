import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { CHANGE_TYPES, type ChangeType } from '@skill-registry/rules/changes';
import { orgs, webhooks } from '../api/endpoints';
import type { Delivery, Organisation, Webhook } from '../api/types';
import { HttpStatus } from '../components/Badges';
import { CopyButton } from '../components/CopyButton';
import { ConfirmDialog } from '../components/Dialog';
import { SelectField, TextField } from '../components/Field';
import { PageHeader } from '../components/Layout';
import { useNotify } from '../components/Notices';
import { EmptyState, ErrorMessage, Loading } from '../components/States';
import { useAction } from '../hooks/useAction';
import { usePageTitle } from '../hooks/usePageTitle';
import { useResource } from '../hooks/useResource';
import { formatDateTime, formatRelative, plural } from '../lib/format';
import { useSession } from '../session/session';

/** While a delivery of the open log is pending, the log is read again this often. */
const PENDING_POLL_MS = 3_000;

type Created = Webhook & { secret: string };

/**
 * Webhooks: the subscriptions the caller manages (their own, their organisations' where they are an owner or admin,
 * every one for an administrator), each with its state — on, turned off, or disabled by the registry with why and
 * when — and its delivery log. A new one's signing secret is shown once.
 */
export function WebhooksPage() {
  usePageTitle('Webhooks');
  const { isAdmin } = useSession();
  const [params] = useSearchParams();
  const focusId = params.get('id');
  const { resource, reload, setData } = useResource((signal) => webhooks.list(signal), []);
  const memberships = useResource((signal) => orgs.mine(signal), []);
  const [created, setCreated] = useState<Created | null>(null);
  const [removing, setRemoving] = useState<Webhook | null>(null);
  const notify = useNotify();
  const hooks = resource.data?.items;
  const myOrgs = memberships.resource.data?.items ?? [];
  const managed = myOrgs.filter((o) => o.role === 'owner' || o.role === 'admin');

  function replace(hook: Webhook) {
    setData((current) => current && { items: current.items.map((h) => (h.id === hook.id ? hook : h)) });
  }

  async function remove() {
    if (!removing) return;
    await webhooks.remove(removing.id);
    setData((current) => current && { items: current.items.filter((h) => h.id !== removing.id) });
    if (created?.id === removing.id) setCreated(null);
    notify('Webhook deleted.');
  }

  return (
    <>
      <PageHeader
        title="Webhooks"
        subtitle="The registry POSTs each change of your skills to these URLs, signed with the webhook's secret. See the API reference for how to verify a delivery."
      />
      <div className="two-column">
        <section className="card" aria-labelledby="create-webhook-title">
          <h2 id="create-webhook-title">Add a webhook</h2>
          <CreateWebhookForm
            orgs={managed}
            isAdmin={isAdmin}
            onCreated={(hook) => {
              setCreated(hook);
              const { secret, ...listed } = hook;
              setData((current) => current && { items: [listed, ...current.items] });
            }}
          />
        </section>
        <section aria-labelledby="webhooks-title" className="webhooks-list">
          <h2 id="webhooks-title">Your webhooks</h2>
          {created && <NewSecret created={created} onDismiss={() => setCreated(null)} />}
          {resource.status === 'error' && <ErrorMessage error={resource.error} retry={reload} />}
          {!hooks && resource.status === 'loading' && <Loading label="Loading webhooks…" />}
          {hooks?.length === 0 && (
            <EmptyState title="No webhooks yet">Add one to be told of your skills' changes as they happen.</EmptyState>
          )}
          {hooks && hooks.length > 0 && (
            <ul className="webhook-cards">
              {hooks.map((hook) => (
                <WebhookCard
                  key={hook.id}
                  hook={hook}
                  orgs={myOrgs}
                  isAdmin={isAdmin}
                  focused={hook.id === focusId}
                  onChanged={replace}
                  onRemove={() => setRemoving(hook)}
                />
              ))}
            </ul>
          )}
        </section>
      </div>
      <ConfirmDialog
        open={removing !== null}
        title="Delete this webhook?"
        confirmLabel="Delete webhook"
        tone="danger"
        onConfirm={remove}
        onClose={() => setRemoving(null)}
      >
        <p>
          Nothing more is sent to <code className="break">{removing?.url}</code>, and its delivery log goes with it.
        </p>
      </ConfirmDialog>
    </>
  );
}

function scopeLabel(hook: Webhook, orgs: readonly Organisation[], isAdmin: boolean): string {
  if (hook.scope === 'all') return 'Every skill';
  if (hook.scope === 'org') {
    const org = orgs.find((o) => o.id === hook.org_id);
    return org ? `Organisation @${org.handle}` : 'An organisation';
  }
  // An administrator's list holds everyone's; the API does not say whose a user's own webhook is.
  return isAdmin ? "Its maker's skills" : 'Your skills';
}

function CreateWebhookForm({
  orgs,
  isAdmin,
  onCreated,
}: {
  orgs: readonly Organisation[];
  isAdmin: boolean;
  onCreated: (hook: Created) => void;
}) {
  const [url, setUrl] = useState('');
  const [scope, setScope] = useState('user');
  const [every, setEvery] = useState(true);
  const [events, setEvents] = useState<ChangeType[]>([]);
  const [submitted, setSubmitted] = useState(false);
  const { busy, error, run } = useAction();
  const urlProblem = /^https?:\/\/\S+$/i.test(url.trim()) ? undefined : 'An http or https URL, e.g. https://ci.example.com/hooks/skills.';
  const eventsProblem = !every && events.length === 0 ? 'Pick at least one event, or take every event.' : undefined;

  function submit(event: SubmitEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (urlProblem || eventsProblem) return;
    void run(async () => {
      const hook = await webhooks.create({
        url: url.trim(),
        ...(every ? {} : { events }),
        ...(scope === 'all' ? { all: true } : scope.startsWith('org:') ? { org: scope.slice(4) } : {}),
      });
      onCreated(hook as Created);
      setUrl('');
      setSubmitted(false);
    });
  }

  return (
    <form onSubmit={submit} noValidate>
      <TextField
        label="Payload URL"
        type="url"
        inputMode="url"
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        error={submitted ? urlProblem : undefined}
        placeholder="https://ci.example.com/hooks/skills"
        maxLength={2000}
        hint="Reached from the registry: a public address, answering 2xx within 10 seconds."
      />
      <SelectField label="Changes of" value={scope} onChange={(e) => setScope(e.target.value)}>
        <option value="user">Your skills</option>
        {orgs.map((o) => (
          <option key={o.id} value={`org:${o.handle}`}>
            Organisation @{o.handle}
          </option>
        ))}
        {isAdmin && <option value="all">Every skill (administrators)</option>}
      </SelectField>
      <fieldset className="plain-fieldset">
        <legend>Events</legend>
        <label className="choice">
          <input type="radio" name="webhook-events" checked={every} onChange={() => setEvery(true)} />
          <span className="choice-label">Every event</span>
        </label>
        <label className="choice">
          <input type="radio" name="webhook-events" checked={!every} onChange={() => setEvery(false)} />
          <span className="choice-label">Only these</span>
        </label>
        {!every && (
          <div className="event-choices">
            {CHANGE_TYPES.map((type) => (
              <label key={type} className="choice">
                <input
                  type="checkbox"
                  checked={events.includes(type)}
                  onChange={(e) => setEvents((current) => (e.target.checked ? [...current, type] : current.filter((t) => t !== type)))}
                />
                <code>{type}</code>
              </label>
            ))}
          </div>
        )}
        {submitted && eventsProblem && <p className="field-error">{eventsProblem}</p>}
      </fieldset>
      {error !== null && <ErrorMessage error={error} />}
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? 'Adding…' : 'Add webhook'}
      </button>
    </form>
  );
}

function NewSecret({ created, onDismiss }: { created: Created; onDismiss: () => void }) {
  return (
    <div className="alert alert-success secret" role="status">
      <p className="alert-title">Webhook added</p>
      <p>
        Copy its signing secret now: this is the only time the registry shows it. Your receiver checks each delivery's signature with it.
      </p>
      <div className="command">
        <code className="secret-value" data-testid="new-webhook-secret">
          {created.secret}
        </code>
        <CopyButton text={created.secret} label="Copy secret" />
      </div>
      <button type="button" className="button button-small button-ghost" onClick={onDismiss}>
        I have stored it
      </button>
    </div>
  );
}

function StateBadge({ hook }: { hook: Webhook }) {
  if (hook.active) return <span className="badge badge-published">Active</span>;
  if (hook.disabled_reason !== null) return <span className="badge badge-deprecated">Disabled by the registry</span>;
  return <span className="badge badge-draft">Turned off</span>;
}

function WebhookCard({
  hook,
  orgs,
  isAdmin,
  focused,
  onChanged,
  onRemove,
}: {
  hook: Webhook;
  orgs: readonly Organisation[];
  isAdmin: boolean;
  focused: boolean;
  onChanged: (hook: Webhook) => void;
  onRemove: () => void;
}) {
  const [logOpen, setLogOpen] = useState(focused);
  const [logGeneration, setLogGeneration] = useState(0);
  const { busy, error, run } = useAction();
  const notify = useNotify();
  const ref = useRef<HTMLLIElement>(null);

  useEffect(() => {
    if (focused) ref.current?.scrollIntoView({ block: 'start' });
  }, [focused]);

  const setActive = (active: boolean) =>
    run(async () => {
      onChanged(await webhooks.update(hook.id, { active }));
      notify(active ? 'Webhook turned on.' : 'Webhook turned off.');
    });
  const ping = () =>
    run(async () => {
      await webhooks.test(hook.id);
      notify('Test ping queued; the log shows when it is delivered.');
      setLogOpen(true);
      setLogGeneration((g) => g + 1);
    });

  return (
    <li
      ref={ref}
      className={focused ? 'webhook-card card focused' : 'webhook-card card'}
      data-testid="webhook"
      aria-labelledby={`hook-${hook.id}`}
    >
      <div className="webhook-head">
        <code className="webhook-url break" id={`hook-${hook.id}`}>
          {hook.url}
        </code>
        <StateBadge hook={hook} />
      </div>
      <p className="muted small">
        {scopeLabel(hook, orgs, isAdmin)} · {hook.events.length === 0 ? 'every event' : hook.events.join(', ')} · added{' '}
        <time dateTime={hook.created_at} title={formatDateTime(hook.created_at)}>
          {formatRelative(hook.created_at)}
        </time>
      </p>
      {!hook.active && hook.disabled_reason !== null && (
        <div className="alert alert-error" role="alert" data-testid="disabled-by-registry">
          <p className="alert-title">
            Disabled by the registry{' '}
            {hook.disabled_at && (
              <time dateTime={hook.disabled_at} title={formatRelative(hook.disabled_at)}>
                on {formatDateTime(hook.disabled_at)}
              </time>
            )}
          </p>
          <p className="break">{hook.disabled_reason}</p>
          <p>Nothing is sent while it is off. Once the receiver answers again, turn it back on.</p>
        </div>
      )}
      {hook.active && hook.failures > 0 && (
        <p className="alert alert-warning">{plural(hook.failures, 'delivery', 'deliveries')} in a row failed every attempt.</p>
      )}
      <div className="webhook-actions">
        {hook.active ? (
          <button type="button" className="button button-small" disabled={busy} onClick={() => void setActive(false)}>
            Turn off
          </button>
        ) : (
          <button type="button" className="button button-small button-primary" disabled={busy} onClick={() => void setActive(true)}>
            Turn back on
          </button>
        )}
        <button type="button" className="button button-small" disabled={busy} onClick={() => void ping()}>
          Send test ping
        </button>
        <button type="button" className="button button-small" aria-expanded={logOpen} onClick={() => setLogOpen((open) => !open)}>
          {logOpen ? 'Hide deliveries' : 'Show deliveries'}
        </button>
        <button type="button" className="button button-small button-danger-outline" onClick={onRemove}>
          Delete
        </button>
      </div>
      {error !== null && <ErrorMessage error={error} />}
      {logOpen && <DeliveryLog hookId={hook.id} generation={logGeneration} />}
    </li>
  );
}

const STATE_BADGE: Record<Delivery['state'], string> = {
  pending: 'badge-draft',
  delivered: 'badge-published',
  failed: 'badge-deprecated',
  cancelled: 'badge-private',
};

function DeliveryLog({ hookId, generation }: { hookId: string; generation: number }) {
  const { resource, reload } = useResource((signal) => webhooks.deliveries(hookId, signal), [hookId, generation]);
  const items = resource.data?.items;
  const pending = items?.some((d) => d.state === 'pending') ?? false;

  useEffect(() => {
    if (!pending || resource.status !== 'ready') return;
    const timer = window.setTimeout(reload, PENDING_POLL_MS);
    return () => window.clearTimeout(timer);
  }, [pending, resource, reload]);

  return (
    <section className="delivery-log" aria-label="Deliveries">
      <div className="delivery-log-head">
        <h3>Deliveries</h3>
        <button type="button" className="button button-small button-ghost" onClick={reload}>
          Refresh
        </button>
      </div>
      {resource.status === 'error' && <ErrorMessage error={resource.error} retry={reload} />}
      {!items && resource.status === 'loading' && <Loading label="Loading deliveries…" inline />}
      {items?.length === 0 && <p className="muted">Nothing sent yet. Send a test ping to try the receiver.</p>}
      {items && items.length > 0 && (
        <ul className="deliveries">
          {items.map((delivery) => (
            <DeliveryItem key={delivery.id} hookId={hookId} delivery={delivery} onRedelivered={reload} />
          ))}
        </ul>
      )}
    </section>
  );
}

function DeliveryItem({ hookId, delivery, onRedelivered }: { hookId: string; delivery: Delivery; onRedelivered: () => void }) {
  const { busy, error, run } = useAction();
  const notify = useNotify();
  const redeliver = () =>
    run(async () => {
      await webhooks.redeliver(hookId, delivery.id);
      notify('Sent again as a new delivery.');
      onRedelivered();
    });
  return (
    <li className="delivery" data-testid="delivery" data-state={delivery.state}>
      <div className="delivery-head">
        <code>{delivery.event_type}</code>
        <span className={`badge ${STATE_BADGE[delivery.state]}`}>{delivery.state}</span>
        <time className="muted small" dateTime={delivery.created_at} title={formatDateTime(delivery.created_at)}>
          {formatRelative(delivery.created_at)}
        </time>
        {delivery.redelivery_of !== null && <span className="muted small">redelivery</span>}
        <button type="button" className="button button-small" disabled={busy} onClick={() => void redeliver()}>
          Redeliver
        </button>
      </div>
      {delivery.attempts.length > 0 && (
        <ol className="attempts">
          {delivery.attempts.map((a) => (
            <li key={a.attempt} className="attempt">
              <span className="muted small">#{a.attempt}</span>
              {a.status_code !== null ? <HttpStatus code={a.status_code} /> : <span className="http-status http-server">no answer</span>}
              <span className="small">{a.duration_ms} ms</span>
              <time className="muted small" dateTime={a.attempted_at}>
                {formatDateTime(a.attempted_at)}
              </time>
              {a.error !== null && <span className="attempt-error small break">{a.error}</span>}
            </li>
          ))}
        </ol>
      )}
      {error !== null && <ErrorMessage error={error} />}
    </li>
  );
}
