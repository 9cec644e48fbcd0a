import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { admin } from '../../api/endpoints';
import type { ScanJob } from '../../api/types';
import { ConfirmDialog } from '../../components/Dialog';
import { PageHeader } from '../../components/Layout';
import { Pagination } from '../../components/Pagination';
import { EmptyState, ErrorMessage, Loading } from '../../components/States';
import { usePageTitle } from '../../hooks/usePageTitle';
import { useResource } from '../../hooks/useResource';
import { pageParam, useSearchParam } from '../../hooks/useSearchParamText';
import { formatDateTime, formatNumber, plural } from '../../lib/format';
import { AdminNav } from './AdminNav';

/** How often a running job's progress is asked for: the registry's nodes claim versions every few seconds. */
const POLL_MS = 2000;
const JOBS_PAGE_SIZE = 10;

/** Rescanning every stored version when the rules change, following a job (`?job=`), and the jobs run so far. */
export function RescanPage() {
  usePageTitle('Rescans');
  const [params, set] = useSearchParam();
  const jobId = params.get('job');
  const page = pageParam(params);
  const [confirming, setConfirming] = useState(false);
  const { resource, reload } = useResource((signal) => (jobId ? admin.rescanJob(jobId, signal) : Promise.resolve(null)), [jobId]);
  const job = resource.data;
  // The list follows the job being watched: it is read again when that job starts or finishes.
  const jobs = useResource((signal) => admin.rescanJobs({ page, page_size: JOBS_PAGE_SIZE }, signal), [page, jobId, job?.state]);

  // A running job is asked for again after a pause; the page stops asking once it has finished.
  useEffect(() => {
    if (job?.state !== 'running' || resource.status !== 'ready') return undefined;
    const timer = window.setTimeout(reload, POLL_MS);
    return () => window.clearTimeout(timer);
  }, [job, resource.status, reload]);

  async function start() {
    const started = await admin.startRescan();
    set('job', started.id);
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
      <section aria-labelledby="jobs-title" aria-busy={jobs.resource.status === 'loading'}>
        <h2 id="jobs-title" className="results-count">
          {jobs.resource.data ? plural(jobs.resource.data.total, 'rescan job') : 'Rescan jobs'}
        </h2>
        {jobs.resource.status === 'error' && <ErrorMessage error={jobs.resource.error} retry={jobs.reload} />}
        {!jobs.resource.data && jobs.resource.status === 'loading' && <Loading label="Loading rescan jobs…" />}
        {jobs.resource.data?.items.length === 0 && <EmptyState title="No rescans yet">Rescans you start appear here.</EmptyState>}
        {jobs.resource.data && jobs.resource.data.items.length > 0 && (
          <>
            <div className="table-scroll">
              <table className="table">
                <caption className="visually-hidden">Rescan jobs, the latest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Started</th>
                    <th scope="col">Rules</th>
                    <th scope="col">Progress</th>
                    <th scope="col">Finished</th>
                  </tr>
                </thead>
                <tbody>
                  {jobs.resource.data.items.map((item) => (
                    <JobRow key={item.id} job={item} current={item.id === jobId} />
                  ))}
                </tbody>
              </table>
            </div>
            <Pagination
              page={page}
              pageSize={JOBS_PAGE_SIZE}
              total={jobs.resource.data.total}
              onPage={(p) => set('page', p === 1 ? null : String(p))}
              label="Rescan job pages"
            />
          </>
        )}
      </section>
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

function JobRow({ job, current }: { job: ScanJob; current: boolean }) {
  return (
    <tr aria-current={current ? 'true' : undefined}>
      <td>
        <Link to={`?job=${encodeURIComponent(job.id)}`}>{formatDateTime(job.started_at)}</Link>
      </td>
      <td>{job.rules_version}</td>
      <td>
        {job.state === 'running' ? 'Running' : 'Finished'}: {formatNumber(job.done)} of {formatNumber(job.total)}
        {job.failed > 0 && `, ${formatNumber(job.failed)} failed`}
      </td>
      <td>{job.finished_at ? formatDateTime(job.finished_at) : <span className="muted">not yet</span>}</td>
    </tr>
  );
}
