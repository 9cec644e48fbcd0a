import type { ReactNode } from 'react';
import { ApiError, messageOf } from '../api/client';

/** A loading indicator that screen readers announce. */
export function Loading({ label = 'Loading…', inline = false }: { label?: string; inline?: boolean }) {
  return (
    <div className={inline ? 'loading loading-inline' : 'loading'} role="status">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

/** An API failure, shown as the problem's `detail`, with the request id to quote and a retry when it helps. */
export function ErrorMessage({ error, retry, title }: { error: unknown; retry?: () => void; title?: string }) {
  const problem = error instanceof ApiError ? error.problem : null;
  return (
    <div className="alert alert-error" role="alert">
      {title && <p className="alert-title">{title}</p>}
      <p>{messageOf(error)}</p>
      {problem?.errors && problem.errors.length > 0 && <FieldErrorList errors={problem.errors} />}
      <div className="alert-footer">
        {problem && problem.request_id !== '' && (
          <span className="muted small">
            Request id <code>{problem.request_id}</code>
          </span>
        )}
        {retry && (
          <button type="button" className="button button-small" onClick={retry}>
            Try again
          </button>
        )}
      </div>
    </div>
  );
}

/** The per-field (or per-archive-entry) problems of a refusal. */
export function FieldErrorList({ errors }: { errors: readonly { field: string; message: string; entry?: string | undefined }[] }) {
  return (
    <ul className="field-errors">
      {errors.map((e, i) => (
        <li key={`${e.field}-${e.entry ?? ''}-${i}`}>
          {e.entry !== undefined ? (
            <>
              <code className="entry">{e.entry}</code> {e.message}
            </>
          ) : (
            <>
              <strong>{e.field}</strong> {e.message}
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="empty">
      <svg className="empty-icon" viewBox="0 0 48 48" aria-hidden="true">
        <path d="M8 16 24 6l16 10v16L24 42 8 32z" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinejoin="round" />
        <path d="M8 16l16 10 16-10M24 26v16" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinejoin="round" />
      </svg>
      <p className="empty-title">{title}</p>
      {children && <div className="muted">{children}</div>}
      {action && <div className="empty-action">{action}</div>}
    </div>
  );
}
