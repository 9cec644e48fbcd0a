import { useId, useState, type SubmitEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ApiError } from '../api/client';
import { apiKeys, logs } from '../api/endpoints';
import type { CallLog, LogsQuery } from '../api/types';
import { HttpStatus } from '../components/Badges';
import { PageHeader } from '../components/Layout';
import { Pagination } from '../components/Pagination';
import { EmptyState, ErrorMessage, Loading } from '../components/States';
import { usePageTitle } from '../hooks/usePageTitle';
import { useResource } from '../hooks/useResource';
import { pageParam } from '../hooks/useSearchParamText';
import { formatDateTime, formatNumber, plural } from '../lib/format';

const PAGE_SIZE = 25;
const RANGES = [
  { value: '1h', label: 'Last hour', ms: 3_600_000 },
  { value: '24h', label: 'Last 24 hours', ms: 86_400_000 },
  { value: '7d', label: 'Last 7 days', ms: 7 * 86_400_000 },
  { value: '30d', label: 'Last 30 days', ms: 30 * 86_400_000 },
  { value: 'all', label: 'Everything kept', ms: 0 },
  { value: 'custom', label: 'Custom range', ms: 0 },
] as const;
const STATUSES = [
  { value: '', label: 'Any status' },
  { value: '2xx', label: '2xx success' },
  { value: '3xx', label: '3xx redirect' },
  { value: '4xx', label: '4xx client error' },
  { value: '5xx', label: '5xx server error' },
  { value: '401', label: '401' },
  { value: '403', label: '403' },
  { value: '404', label: '404' },
  { value: '429', label: '429' },
];
const METHODS = ['', 'GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'HEAD'];

/** `datetime-local` text (local time, no zone) as an ISO instant, or undefined when empty or invalid. */
function localToIso(value: string | null): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/**
 * Your calls to the API, newest first, filtered by time range, status and method (all in the URL), and a
 * lookup by request id, the value of a response's X-Request-Id header.
 */
export function CallLogsPage() {
  usePageTitle('Call logs');
  const id = useId();
  const [params, setParams] = useSearchParams();
  const range = RANGES.find((r) => r.value === params.get('range'))?.value ?? '24h';
  const status = params.get('status') ?? '';
  const method = params.get('method') ?? '';
  const page = pageParam(params);
  const customFrom = params.get('from');
  const customTo = params.get('to');
  // The window is fixed when the filters are chosen (and on Refresh), not at every render.
  const [now, setNow] = useState(() => Date.now());

  const query: LogsQuery = { page, page_size: PAGE_SIZE };
  const preset = RANGES.find((r) => r.value === range);
  if (preset && preset.ms > 0) query.from = new Date(now - preset.ms).toISOString();
  if (range === 'custom') {
    const from = localToIso(customFrom);
    const to = localToIso(customTo);
    if (from) query.from = from;
    if (to) query.to = to;
  }
  if (status) query.status_code = status;
  if (method) query.method = method;

  const { resource, reload } = useResource((signal) => logs.list(query, signal), [JSON.stringify(query)]);
  const keys = useResource((signal) => apiKeys.list(signal).catch(() => ({ items: [] })), []);
  const keyNames = new Map((keys.resource.data?.items ?? []).map((k) => [k.id, k.name]));
  const data = resource.data;

  function set(changes: Record<string, string | null>) {
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      for (const [name, value] of Object.entries(changes)) {
        if (value === null || value === '') next.delete(name);
        else next.set(name, value);
      }
      if (!('page' in changes)) next.delete('page');
      return next;
    });
    setNow(Date.now());
  }

  return (
    <>
      <PageHeader title="Call logs" subtitle="Every API call made with your session or your keys, kept for a limited time." />
      <RequestLookup keyNames={keyNames} />
      <form className="toolbar filters-bar" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
        <div className="field field-inline">
          <label htmlFor={`${id}-range`}>Time</label>
          <select id={`${id}-range`} value={range} onChange={(e) => set({ range: e.target.value === '24h' ? null : e.target.value })}>
            {RANGES.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
        </div>
        {range === 'custom' && (
          <>
            <div className="field field-inline">
              <label htmlFor={`${id}-from`}>From</label>
              <input id={`${id}-from`} type="datetime-local" value={customFrom ?? ''} onChange={(e) => set({ from: e.target.value })} />
            </div>
            <div className="field field-inline">
              <label htmlFor={`${id}-to`}>To</label>
              <input id={`${id}-to`} type="datetime-local" value={customTo ?? ''} onChange={(e) => set({ to: e.target.value })} />
            </div>
          </>
        )}
        <div className="field field-inline">
          <label htmlFor={`${id}-status`}>Status</label>
          <select id={`${id}-status`} value={status} onChange={(e) => set({ status: e.target.value })}>
            {STATUSES.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field field-inline">
          <label htmlFor={`${id}-method`}>Method</label>
          <select id={`${id}-method`} value={method} onChange={(e) => set({ method: e.target.value })}>
            {METHODS.map((m) => (
              <option key={m} value={m}>
                {m || 'Any method'}
              </option>
            ))}
          </select>
        </div>
        <button
          type="button"
          className="button"
          onClick={() => {
            setNow(Date.now());
            reload();
          }}
        >
          Refresh
        </button>
      </form>

      <section aria-busy={resource.status === 'loading'} aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`} className="results-count" aria-live="polite">
          {data ? plural(data.total, 'call') : 'Calls'}
        </h2>
        {resource.status === 'error' && <ErrorMessage error={resource.error} retry={reload} />}
        {!data && resource.status === 'loading' && <Loading label="Loading calls…" />}
        {data?.items.length === 0 && (
          <EmptyState title="No calls in this range">Calls appear here within a second of their answer.</EmptyState>
        )}
        {data && data.items.length > 0 && (
          <>
            <div className="table-scroll">
              <table className="table logs-table table-cards">
                <thead>
                  <tr>
                    <th scope="col">Time</th>
                    <th scope="col">Method</th>
                    <th scope="col">Path</th>
                    <th scope="col">Status</th>
                    <th scope="col" className="num">
                      Duration
                    </th>
                    <th scope="col">Credential</th>
                    <th scope="col">Request id</th>
                  </tr>
                </thead>
                <tbody>
                  {data.items.map((call) => (
                    <tr key={call.request_id}>
                      <td className="nowrap" data-label="Time">
                        <time dateTime={call.created_at}>{formatDateTime(call.created_at)}</time>
                      </td>
                      <td data-label="Method">
                        <span className="method">{call.method}</span>
                      </td>
                      <td className="path" data-label="Path">
                        <code>{call.path}</code>
                      </td>
                      <td data-label="Status">
                        <HttpStatus code={call.status_code} />
                      </td>
                      <td className="num nowrap" data-label="Duration">
                        {formatNumber(Math.round(call.duration_ms * 10) / 10)} ms
                      </td>
                      <td data-label="Credential">{credential(call, keyNames)}</td>
                      <td data-label="Request id">
                        <code className="request-id" title={call.request_id}>
                          {call.request_id.slice(-12)}
                        </code>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pagination
              page={page}
              pageSize={PAGE_SIZE}
              total={data.total}
              onPage={(p) => set({ page: p === 1 ? null : String(p) })}
              label="Log pages"
            />
          </>
        )}
      </section>
    </>
  );
}

function credential(call: CallLog, keyNames: Map<string, string>): string {
  if (call.auth === 'session') return 'Session';
  const name = call.api_key_id ? keyNames.get(call.api_key_id) : undefined;
  return name ? `Key “${name}”` : 'API key (revoked)';
}

function RequestLookup({ keyNames }: { keyNames: Map<string, string> }) {
  const id = useId();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [found, setFound] = useState<CallLog | null>(null);
  const [error, setError] = useState<unknown>(null);

  async function lookup(event: SubmitEvent) {
    event.preventDefault();
    const requestId = text.trim();
    if (requestId === '') return;
    setBusy(true);
    setError(null);
    setFound(null);
    try {
      setFound(await logs.get(requestId));
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card lookup" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Find a call by request id</h2>
      <form className="lookup-form" onSubmit={(e) => void lookup(e)}>
        <label htmlFor={`${id}-input`} className="visually-hidden">
          Request id
        </label>
        <input
          id={`${id}-input`}
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="The X-Request-Id of a response"
          spellCheck={false}
          autoComplete="off"
        />
        <button type="submit" className="button" disabled={busy || text.trim() === ''}>
          {busy ? 'Looking…' : 'Look up'}
        </button>
      </form>
      {error !== null &&
        (error instanceof ApiError && error.status === 404 ? (
          <p className="alert alert-warning" role="alert">
            {error.problem.detail}
          </p>
        ) : (
          <ErrorMessage error={error} />
        ))}
      {found && (
        <dl className="call-detail" aria-live="polite">
          <div>
            <dt>Request id</dt>
            <dd>
              <code>{found.request_id}</code>
            </dd>
          </div>
          <div>
            <dt>Time</dt>
            <dd>{formatDateTime(found.created_at)}</dd>
          </div>
          <div>
            <dt>Call</dt>
            <dd>
              <span className="method">{found.method}</span> <code>{found.path}</code>
            </dd>
          </div>
          <div>
            <dt>Route</dt>
            <dd>{found.route ? <code>{found.route}</code> : <span className="muted">no route matched</span>}</dd>
          </div>
          <div>
            <dt>Status</dt>
            <dd>
              <HttpStatus code={found.status_code} />
            </dd>
          </div>
          <div>
            <dt>Duration</dt>
            <dd>{formatNumber(Math.round(found.duration_ms * 10) / 10)} ms</dd>
          </div>
          <div>
            <dt>Credential</dt>
            <dd>{credential(found, keyNames)}</dd>
          </div>
          <div>
            <dt>Client</dt>
            <dd>
              {found.ip ?? 'unknown address'}
              {found.user_agent ? ` · ${found.user_agent}` : ''}
            </dd>
          </div>
        </dl>
      )}
    </section>
  );
}
