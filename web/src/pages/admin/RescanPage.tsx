import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { admin } from '../../api/endpoints';
import { ConfirmDialog } from '../../components/Dialog';
import { PageHeader } from '../../components/Layout';
import { ErrorMessage, Loading } from '../../components/States';
import { usePageTitle } from '../../hooks/usePageTitle';
import { useResource } from '../../hooks/useResource';
import { formatDateTime, formatNumber } from '../../lib/format';
import { AdminNav } from './AdminNav';

/** How often a running job's progress is asked for: the registry's nodes claim versions every few seconds. */
const POLL_MS = 2000;

/** Rescanning every stored version when the rules change, and following the job (`?job=`). */
export function RescanPage() {
  usePageTitle('Rescans');
  const [params, setParams] = useSearchParams();
  const jobId = params.get('job');
  const [confirming, setConfirming] = useState(false);
  const { resource, reload } = useResource((signal) => (jobId ? admin.rescanJob(jobId, signal) : Promise.resolve(null)), [jobId]);
  const job = resource.data;

  // A running job is asked for again after a pause; the page stops asking once it has finished.
  useEffect(() => {
    if (job?.state !== 'running' || resource.status !== 'ready') return undefined;
    const timer = window.setTimeout(reload, POLL_MS);
    return () => window.clearTimeout(timer);
  }, [job, resource.status, reload]);

  async function start() {
    const started = await admin.startRescan();
    setParams({ job: started.id });
  }

  return (
    <>
      <PageHeader title="Administration" subtitle="Review drafts, moderate published skills and manage accounts." />
      <AdminNav />
      <section className="card" aria-labelledby="rescan-title">
        <h2 id="rescan-title">Rescan every version</h2>
        <p>
          When the scanner’s rules change, scan every stored version again. The registry’s nodes share the work in the background; verdicts,
          quarantines and latest versions follow the new reports as they arrive.
        </p>
        <button type="button" className="button button-primary" onClick={() => setConfirming(true)}>
          Start a rescan
        </button>
      </section>
      {jobId && (
        <section className="card report-detail" aria-labelledby="job-title" aria-busy={resource.status === 'loading'}>
          <h2 id="job-title">Rescan job</h2>
          {resource.status === 'error' && <ErrorMessage error={resource.error} retry={reload} />}
          {!job && resource.status === 'loading' && <Loading label="Loading the job…" />}
          {job && (
            <>
              <p role="status">
                {job.state === 'running' ? 'Running' : 'Finished'}: {formatNumber(job.done)} of {formatNumber(job.total)} versions scanned
                {job.failed > 0 && `, ${formatNumber(job.failed)} failed`}, {formatNumber(job.pending)} pending.
              </p>
              <progress className="job-progress" max={Math.max(job.total, 1)} value={job.done + job.failed} aria-label="Rescan progress" />
              <dl className="facts">
                <div>
                  <dt>Rules</dt>
                  <dd>{job.rules_version}</dd>
                </div>
                <div>
                  <dt>Started</dt>
                  <dd>{formatDateTime(job.started_at)}</dd>
                </div>
                <div>
                  <dt>Finished</dt>
                  <dd>{job.finished_at ? formatDateTime(job.finished_at) : <span className="muted">not yet</span>}</dd>
                </div>
              </dl>
              {job.failed > 0 && (
                <p className="warning-text">Failed versions have a package that is missing or that the current rules refuse.</p>
              )}
            </>
          )}
        </section>
      )}
      <ConfirmDialog
        open={confirming}
        title="Rescan every version?"
        confirmLabel="Start the rescan"
        onConfirm={start}
        onClose={() => setConfirming(false)}
      >
        <p>Every version stored now is scanned again with the current rules. Only one rescan runs at a time.</p>
      </ConfirmDialog>
    </>
  );
}
