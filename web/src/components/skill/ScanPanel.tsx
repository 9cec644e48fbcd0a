import { ApiError } from '../../api/client';
import { versions as versionApi } from '../../api/endpoints';
import type { Version } from '../../api/types';
import { useResource } from '../../hooks/useResource';
import { formatDate } from '../../lib/format';
import { EmptyState, ErrorMessage, Loading } from '../States';
import { QuarantineNotice } from './QuarantineNotice';
import { ScanFindings } from './ScanFindings';

/** The "Security" tab: the scanner's report on one version, and the owner's explanation to reviewers. */
export function ScanPanel({ slug, version, canDownload }: { slug: string; version: Version; canDownload: boolean }) {
  const { resource, reload } = useResource((signal) => versionApi.scan(slug, version.version, signal), [slug, version.version]);
  if (version.scan === null) {
    return (
      <EmptyState title="Not scanned">
        Version {version.version} was uploaded before the scanner read packages; it is scanned again when the rules are rerun.
      </EmptyState>
    );
  }
  const report = resource.data;
  if (resource.status === 'error') {
    const missing = resource.error instanceof ApiError && resource.error.code === 'scan_not_found';
    return missing ? <EmptyState title="Not scanned" /> : <ErrorMessage error={resource.error} retry={reload} />;
  }
  if (!report) return <Loading label="Loading the scan report…" />;
  return (
    <>
      <h2 className="panel-title">Scan of v{version.version}</h2>
      {report.verdict === 'malicious' && <QuarantineNotice canDownload={canDownload} />}
      <p className="muted small">
        Scanned <time dateTime={report.scanned_at}>{formatDate(report.scanned_at)}</time>.
      </p>
      {report.explanation && (
        <div className="alert alert-info">
          <p className="alert-title">The owner’s explanation</p>
          <p className="pre-line">{report.explanation.text}</p>
          <p className="muted small">
            Written <time dateTime={report.explanation.at}>{formatDate(report.explanation.at)}</time>.
          </p>
        </div>
      )}
      <ScanFindings scan={report} />
    </>
  );
}
