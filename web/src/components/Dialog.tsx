import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { ErrorMessage } from './States';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  /** `danger` paints the confirm button red, for what cannot be undone. */
  tone?: 'default' | 'danger';
  /** Asks for an optional reason (moderation actions); it is passed to onConfirm. */
  reason?: { label: string; hint?: string };
  onConfirm: (reason: string) => Promise<void>;
  onClose: () => void;
}

/**
 * A modal confirmation on the native <dialog>: it traps focus, closes on Escape, and returns focus to the
 * button that opened it. The dialog stays open with the API's problem shown if the action fails.
 */
export function ConfirmDialog({ open, title, children, confirmLabel, tone = 'default', reason, onConfirm, onClose }: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const reasonId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
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

  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      await onConfirm(text.trim());
      onClose();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  }

  return (
    <dialog ref={ref} className="dialog" aria-labelledby={titleId} onClose={onClose} onCancel={() => !busy && onClose()}>
      <form
        method="dialog"
        onSubmit={(event) => {
          event.preventDefault();
          void confirm();
        }}
      >
        <h2 id={titleId}>{title}</h2>
        {children}
        {reason && (
          <div className="field">
            <label htmlFor={reasonId}>
              {reason.label} <span className="optional">(optional)</span>
            </label>
            <textarea id={reasonId} rows={3} maxLength={500} value={text} onChange={(e) => setText(e.target.value)} />
            {reason.hint && <p className="hint">{reason.hint}</p>}
          </div>
        )}
        {error !== null && <ErrorMessage error={error} />}
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className={tone === 'danger' ? 'button button-danger' : 'button button-primary'} disabled={busy}>
            {busy ? 'Working…' : confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
