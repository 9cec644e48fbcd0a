import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { admin, skills } from '../../api/endpoints';
import type { ReportResolution, ReportsResolved, ReportState, SkillStatus } from '../../api/types';
import { FormDialog } from '../../components/Dialog';
import { SelectField, TextArea } from '../../components/Field';
import { EmptyState, ErrorMessage, Loading } from '../../components/States';
import { useAction } from '../../hooks/useAction';
import { useResource } from '../../hooks/useResource';
import { formatDateTime, plural } from '../../lib/format';
import { REASON_LABEL, RESOLUTION_LABEL } from '../../lib/reports';
import { namePath } from '../../lib/names';

/** The status changes an administrator may make while acting on reports (the registry's transition table). */
const ACTION_STATUS: Record<SkillStatus, { to: SkillStatus; label: string }[]> = {
  published: [{ to: 'deprecated', label: 'Deprecate it' }],
  deprecated: [{ to: 'published', label: 'Republish it' }],
  draft: [{ to: 'published', label: 'Publish it' }],
};

interface SkillReportsProps {
  slug: string;
  name: string;
  /** The skill's status as the queue listed it; null when the skill is not on the queue's current page. */
  status: SkillStatus | null;
  state: ReportState;
  onClose: () => void;
  onResolved: (resolved: ReportsResolved) => void;
}

/** One skill's reports, newest first, and (for open ones) the resolution: dismiss, or act with a status change. */
export function SkillReports({ slug, name, status, state, onClose, onResolved }: SkillReportsProps) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [resolving, setResolving] = useState(false);
  const { resource, reload } = useResource((signal) => admin.skillReports(slug, { state, page_size: 100 }, signal), [slug, state]);
  const data = resource.data;
  // A skill opened from a link rather than from the queue's page: its status comes from the skill itself.
  const fetched = useResource((signal) => (status ? Promise.resolve(null) : skills.get(slug, signal)), [slug, status]).resource.data;
  const currentStatus = status ?? fetched?.status ?? null;

  useEffect(() => headingRef.current?.focus(), [slug]);

  return (
    <section className="card report-detail" aria-labelledby="report-detail-title">
      <div className="section-head">
        <h2 id="report-detail-title" ref={headingRef} tabIndex={-1}>
          {state === 'open' ? 'Open' : 'Resolved'} reports of “{name}”
        </h2>
        <div className="moderation-actions">
          <Link className="button" to={`/skills/${namePath(slug)}?tab=security`}>
            Review the skill
          </Link>
          {state === 'open' && data && data.items.length > 0 && (
            <button type="button" className="button button-primary" onClick={() => setResolving(true)}>
              Resolve…
            </button>
          )}
          <button type="button" className="button" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
      {resource.status === 'error' && <ErrorMessage error={resource.error} retry={reload} />}
      {!data && resource.status === 'loading' && <Loading label="Loading reports…" />}
      {data?.items.length === 0 && <EmptyState title={`No ${state} reports`} />}
      {data && data.items.length > 0 && (
        <>
          <p className="muted small">{plural(data.total, 'report')}, newest first.</p>
          <ol className="report-list">
            {data.items.map((report) => (
              <li key={report.id}>
                <p>
                  <strong>{REASON_LABEL[report.reason]}</strong> · by {report.reporter.username} ·{' '}
                  <time dateTime={report.created_at}>{formatDateTime(report.created_at)}</time>
                </p>
                {report.details ? <p className="pre-line">{report.details}</p> : <p className="muted small">No details.</p>}
                {report.resolution && (
                  <p className="small">
                    {RESOLUTION_LABEL[report.resolution]}
                    {report.resolved_by && ` by ${report.resolved_by.username}`}
                    {report.resolved_at && (
                      <>
                        {' '}
                        on <time dateTime={report.resolved_at}>{formatDateTime(report.resolved_at)}</time>
                      </>
                    )}
                    {report.resolution_note && `: ${report.resolution_note}`}
                  </p>
                )}
              </li>
            ))}
          </ol>
        </>
      )}
      <ResolveDialog
        open={resolving}
        slug={slug}
        name={name}
        status={currentStatus}
        count={data?.total ?? 0}
        onClose={() => setResolving(false)}
        onResolved={onResolved}
      />
    </section>
  );
}

function ResolveDialog({
  open,
  slug,
  name,
  status,
  count,
  onClose,
  onResolved,
}: {
  open: boolean;
  slug: string;
  name: string;
  status: SkillStatus | null;
  count: number;
  onClose: () => void;
  onResolved: (resolved: ReportsResolved) => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [resolution, setResolution] = useState<ReportResolution>('dismissed');
  const [to, setTo] = useState<SkillStatus | ''>('');
  const [note, setNote] = useState('');
  const { busy, error, setError, run } = useAction();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      setResolution('dismissed');
      setTo('');
      setNote('');
      setError(null);
      dialog.showModal();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  function resolve(): Promise<void> {
    return run(async () => {
      const trimmed = note.trim();
      const resolved = await admin.resolveReports(slug, {
        resolution,
        ...(trimmed !== '' ? { note: trimmed } : {}),
        ...(resolution === 'actioned' && to !== '' ? { status: to } : {}),
      });
      onClose();
      onResolved(resolved);
    });
  }

  return (
    <FormDialog
      dialogRef={ref}
      title={`Resolve the reports of “${name}”`}
      busy={busy}
      error={error}
      submitLabel={resolution === 'dismissed' ? 'Dismiss reports' : 'Resolve as actioned'}
      onSubmit={resolve}
      onClose={onClose}
    >
      <p>All {plural(count, 'open report')} of this skill are closed together; a hidden skill is hidden no longer.</p>
      <fieldset className="radio-group">
        <legend>Decision</legend>
        <label>
          <input
            type="radio"
            name="resolution"
            value="dismissed"
            checked={resolution === 'dismissed'}
            onChange={() => setResolution('dismissed')}
          />
          Dismiss: nothing wrong, the skill is shown as before
        </label>
        <label>
          <input
            type="radio"
            name="resolution"
            value="actioned"
            checked={resolution === 'actioned'}
            onChange={() => setResolution('actioned')}
          />
          Act on them
        </label>
      </fieldset>
      {resolution === 'actioned' && status && (
        <SelectField
          label="Status change"
          hint="Applied in the same step, so the skill is never shown in between."
          value={to}
          onChange={(e) => setTo(e.target.value as SkillStatus | '')}
        >
          <option value="">Keep it {status}</option>
          {ACTION_STATUS[status].map((t) => (
            <option key={t.to} value={t.to}>
              {t.label}
            </option>
          ))}
        </SelectField>
      )}
      <TextArea
        label="Note"
        optional
        rows={3}
        maxLength={500}
        hint="Kept with the resolution and in the audit trail."
        value={note}
        onChange={(e) => setNote(e.target.value)}
      />
    </FormDialog>
  );
}
