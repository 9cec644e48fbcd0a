import { useEffect, useId, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ApiError } from '../../api/client';
import { reports } from '../../api/endpoints';
import type { ReportReason } from '../../api/types';
import { detailsProblem, REASON_LABEL, REASONS, REPORT_DETAILS_MAX } from '../../lib/reports';
import { SelectField, TextArea } from '../Field';
import { ErrorMessage } from '../States';

type Outcome = { kind: 'filed' } | { kind: 'already' } | { kind: 'limited'; detail: string } | { kind: 'failed'; error: unknown };

/**
 * "Report" for a skill someone else owns: a modal with the reason and details, open while the URL says `?report=1`
 * (so it survives a reload, and Back closes it). The registry's answers each get their own plain state: filed,
 * already reported (one open report per person and skill), too many reports.
 */
export function ReportSkill({ slug, name }: { slug: string; name: string }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [params, setParams] = useSearchParams();
  const open = params.get('report') === '1';
  const setOpen = (value: boolean) => {
    if (value === open) return;
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (value) next.set('report', '1');
      else next.delete('report');
      return next;
    });
  };
  const [reason, setReason] = useState<ReportReason | ''>('');
  const [details, setDetails] = useState('');
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    else if (!open && dialog.open) dialog.close();
  }, [open]);

  function start() {
    setReason('');
    setDetails('');
    setTried(false);
    setOutcome(null);
    setOpen(true);
  }

  const reasonError = tried && reason === '' ? 'Choose a reason.' : undefined;
  const detailsError = reason === '' ? undefined : (detailsProblem(reason, details) ?? undefined);

  async function submit() {
    setTried(true);
    if (reason === '' || detailsProblem(reason, details)) return;
    setBusy(true);
    setOutcome(null);
    try {
      const trimmed = details.trim();
      await reports.file(slug, trimmed === '' ? { reason } : { reason, details: trimmed });
      setOutcome({ kind: 'filed' });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'already_reported') setOutcome({ kind: 'already' });
      else if (error instanceof ApiError && error.status === 429) setOutcome({ kind: 'limited', detail: error.problem.detail });
      else setOutcome({ kind: 'failed', error });
    } finally {
      setBusy(false);
    }
  }

  const done = outcome?.kind === 'filed' || outcome?.kind === 'already';

  return (
    <>
      <button type="button" className="button" onClick={start}>
        Report<span className="visually-hidden"> {name}</span>
      </button>
      <dialog
        ref={ref}
        className="dialog"
        aria-labelledby={titleId}
        // A close event is queued, not dispatched at once: when Back and Forward follow each other quickly, the event
        // of the first closing can arrive after the dialog has opened again, and must not close it.
        onClose={() => !ref.current?.open && setOpen(false)}
        onCancel={() => !busy && setOpen(false)}
      >
        <form
          method="dialog"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (done) setOpen(false);
            else void submit();
          }}
        >
          <h2 id={titleId}>Report “{name}”</h2>
          {outcome?.kind === 'filed' && (
            <div className="alert alert-success" role="status">
              <p className="alert-title">Report sent</p>
              <p>Thank you. An administrator reads every report and decides what happens to the skill.</p>
            </div>
          )}
          {outcome?.kind === 'already' && (
            <div className="alert alert-info" role="status">
              <p className="alert-title">You have already reported this skill</p>
              <p>Your earlier report is still open. You can report it again once an administrator has resolved it.</p>
            </div>
          )}
          {!done && (
            <>
              <p className="muted">Tell the administrators what is wrong with this skill. The owner does not see who reported it.</p>
              <SelectField
                label="Reason"
                value={reason}
                required
                error={reasonError}
                onChange={(e) => setReason(e.target.value as ReportReason | '')}
              >
                <option value="">Choose a reason…</option>
                {REASONS.map((r) => (
                  <option key={r} value={r}>
                    {REASON_LABEL[r]}
                  </option>
                ))}
              </SelectField>
              <TextArea
                label="Details"
                optional={reason !== 'other'}
                rows={4}
                maxLength={REPORT_DETAILS_MAX * 2}
                value={details}
                error={detailsError && (tried || details !== '') ? detailsError : undefined}
                hint="What you saw and where: a file, a line, a link."
                onChange={(e) => setDetails(e.target.value)}
              />
              {outcome?.kind === 'limited' && (
                <div className="alert alert-warning" role="alert">
                  <p className="alert-title">Too many reports for now</p>
                  <p>{outcome.detail}</p>
                </div>
              )}
              {outcome?.kind === 'failed' && <ErrorMessage error={outcome.error} />}
            </>
          )}
          <div className="dialog-actions">
            {done ? (
              <button type="submit" className="button button-primary">
                Close
              </button>
            ) : (
              <>
                <button type="button" className="button" onClick={() => setOpen(false)} disabled={busy}>
                  Cancel
                </button>
                <button type="submit" className="button button-danger" disabled={busy}>
                  {busy ? 'Sending…' : 'Send report'}
                </button>
              </>
            )}
          </div>
        </form>
      </dialog>
    </>
  );
}
