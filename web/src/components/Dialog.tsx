import { useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';
import { useAction } from '../hooks/useAction';
import { ErrorMessage } from './States';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  /** `danger` paints the confirm button red, for what cannot be undone. */
  tone?: 'default' | 'danger';
  /**
   * Asks for a reason (moderation actions), optional unless `required`; it is passed to onConfirm, which refuses a
   * missing required one in its own words. `maxLength` defaults to 500 characters.
   */
  reason?: { label: string; hint?: string; required?: boolean; maxLength?: number };
  onConfirm: (reason: string) => Promise<void>;
  onClose: () => void;
}

/**
 * A modal confirmation on the native <dialog>: it traps focus, closes on Escape, and returns focus to the
 * button that opened it. The dialog stays open with the API's problem shown if the action fails.
 */
export function ConfirmDialog({ open, title, children, confirmLabel, tone = 'default', reason, onConfirm, onClose }: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const reasonId = useId();
  const { busy, error, setError, run } = useAction();
  const [text, setText] = useState('');

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      setError(null);
      setText('');
      dialog.showModal();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  function confirm(): Promise<void> {
    return run(async () => {
      await onConfirm(text.trim());
      onClose();
    });
  }

  return (
    <FormDialog
      dialogRef={ref}
      title={title}
      busy={busy}
      error={error}
      submitLabel={confirmLabel}
      tone={tone}
      onSubmit={confirm}
      onClose={onClose}
    >
      {children}
      {reason && (
        <div className="field">
          <label htmlFor={reasonId}>
            {reason.label} <span className="optional">{reason.required ? '(required)' : '(optional)'}</span>
          </label>
          <textarea
            id={reasonId}
            rows={3}
            maxLength={reason.maxLength ?? 500}
            aria-required={reason.required === true ? true : undefined}
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
          {reason.hint && <p className="hint">{reason.hint}</p>}
        </div>
      )}
    </FormDialog>
  );
}

interface FormDialogProps {
  /** The caller opens and closes the dialog (`showModal`, `close`), since what opening resets differs. */
  dialogRef: RefObject<HTMLDialogElement | null>;
  title: ReactNode;
  busy: boolean;
  /** The API's problem of the last attempt, shown above the buttons; null for none. */
  error: unknown;
  submitLabel: string;
  busyLabel?: string;
  tone?: 'default' | 'danger';
  onSubmit: () => Promise<void>;
  onClose: () => void;
  children?: ReactNode;
}

/**
 * The shell every form in a modal shares: the title, the fields, the problem when the action fails, and Cancel and
 * submit buttons that are disabled while the action runs (Escape does nothing then either).
 */
export function FormDialog({
  dialogRef,
  title,
  busy,
  error,
  submitLabel,
  busyLabel = 'Working…',
  tone = 'default',
  onSubmit,
  onClose,
  children,
}: FormDialogProps) {
  const titleId = useId();
  return (
    <dialog
      ref={dialogRef}
      className="dialog"
      aria-labelledby={titleId}
      // The close event is queued: one that arrives after the dialog has opened again is stale and must not close it.
      onClose={() => !dialogRef.current?.open && onClose()}
      onCancel={() => !busy && onClose()}
    >
      <form
        method="dialog"
        onSubmit={(event) => {
          event.preventDefault();
          void onSubmit();
        }}
      >
        <h2 id={titleId}>{title}</h2>
        {children}
        {error !== null && <ErrorMessage error={error} />}
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className={tone === 'danger' ? 'button button-danger' : 'button button-primary'} disabled={busy}>
            {busy ? busyLabel : submitLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
