import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { ApiError } from '../../api/client';
import { versions as versionApi } from '../../api/endpoints';
import type { Version } from '../../api/types';
import { useAction } from '../../hooks/useAction';
import { useResource } from '../../hooks/useResource';
import { formatDate } from '../../lib/format';
import { countsText, EXPLANATION_MAX } from '../../lib/scan';
import { VerdictBadge } from '../Badges';
import { FormDialog } from '../Dialog';
import { TextArea } from '../Field';
import { useNotify } from '../Notices';
import { EmptyState, ErrorMessage, Loading } from '../States';
import { namePath } from '../../lib/names';

/**
 * The owner's view of the scanner: each version's verdict, a link to its findings, and a rescan with an
 * explanation the reviewer reads beside the findings.
 */
export function OwnerScans({ slug }: { slug: string }) {
  const { resource, reload, setData } = useResource((signal) => versionApi.list(slug, 1, signal), [slug]);
  const [rescanning, setRescanning] = useState<Version | null>(null);
  const notify = useNotify();
  const data = resource.data;

  if (resource.status === 'error') return <ErrorMessage error={resource.error} retry={reload} />;
  if (!data) return <Loading label="Loading versions…" />;
  if (data.items.length === 0)
    return <EmptyState title="No versions yet">Upload a version: every package is scanned as it arrives.</EmptyState>;

  return (
    <>
      <p className="muted">
        Every package is scanned when it is uploaded. A reviewer reads the verdict before anything else; if a finding is expected (a script
        your skill needs, say), explain it and ask for a rescan.
      </p>
      <div className="table-scroll">
        <table className="table table-cards">
          <caption className="visually-hidden">Scan verdicts of each version</caption>
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">Verdict</th>
              <th scope="col">Findings</th>
              <th scope="col">Uploaded</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {data.items.map((v) => (
              <tr key={v.version}>
                <th scope="row" data-label="Version">
                  v{v.version}
                </th>
                <td data-label="Verdict">
                  <VerdictBadge scan={v.scan} />
                  {v.scan?.verdict === 'malicious' && <div className="small danger-text">Quarantined</div>}
                </td>
                <td data-label="Findings">{v.scan ? countsText(v.scan.findings) : <span className="muted">not scanned</span>}</td>
                <td className="nowrap" data-label="Uploaded">
                  {formatDate(v.created_at)}
                </td>
                <td>
                  <div className="moderation-actions">
                    <Link
                      className="button button-small"
                      to={`/skills/${namePath(slug)}?tab=security&version=${encodeURIComponent(v.version)}`}
                    >
                      Findings<span className="visually-hidden"> of version {v.version}</span>
                    </Link>
                    <button type="button" className="button button-small" onClick={() => setRescanning(v)}>
                      Rescan and explain<span className="visually-hidden"> version {v.version}</span>
                    </button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <RescanDialog
        slug={slug}
        version={rescanning}
        onClose={() => setRescanning(null)}
        onDone={(version, scan) => {
          setData((current) => current && { ...current, items: current.items.map((v) => (v.version === version ? { ...v, scan } : v)) });
          notify(`Version ${version} scanned again: ${scan.verdict}.`);
        }}
      />
    </>
  );
}

function RescanDialog({
  slug,
  version,
  onClose,
  onDone,
}: {
  slug: string;
  version: Version | null;
  onClose: () => void;
  onDone: (version: string, scan: NonNullable<Version['scan']>) => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [text, setText] = useState('');
  const { busy, error, setError, run } = useAction();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (version && !dialog.open) {
      setText('');
      setError(null);
      dialog.showModal();
      // The explanation already on file is the starting point, so a rescan does not lose it by accident.
      const controller = new AbortController();
      versionApi.scan(slug, version.version, controller.signal).then(
        (report) => setText((current) => (current === '' ? (report.explanation?.text ?? '') : current)),
        (e: unknown) => {
          if (!(e instanceof ApiError && e.code === 'scan_not_found') && !controller.signal.aborted) setError(e);
        },
      );
      return () => controller.abort();
    }
    if (!version && dialog.open) dialog.close();
    return undefined;
  }, [slug, version]);

  function rescan(): Promise<void> {
    if (!version) return Promise.resolve();
    return run(async () => {
      const report = await versionApi.rescan(slug, version.version, { explanation: text.trim() });
      onDone(version.version, { verdict: report.verdict, rules_version: report.rules_version, findings: report.counts });
      onClose();
    });
  }

  return (
    <FormDialog
      dialogRef={ref}
      title={`Rescan version ${version?.version ?? ''}`}
      busy={busy}
      error={error}
      submitLabel="Rescan"
      busyLabel="Scanning…"
      onSubmit={rescan}
      onClose={onClose}
    >
      <p>The stored package is scanned again with the registry’s current rules, and the verdict replaced.</p>
      <TextArea
        label="Explanation for the reviewer"
        optional
        rows={5}
        maxLength={EXPLANATION_MAX}
        hint="Why the findings are expected. Shown beside them; leave it empty to remove an earlier explanation."
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
    </FormDialog>
  );
}
