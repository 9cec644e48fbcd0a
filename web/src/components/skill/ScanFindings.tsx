import type { PackageScan } from '../../api/types';
import { countsText, groupByFile, VERDICT_MEANING } from '../../lib/scan';
import { VerdictBadge } from '../Badges';

/**
 * What the scanner found in a package: the verdict, then the findings grouped by file (each with its severity,
 * rule, line, excerpt and the rule's explanation), then the external URLs and domains the package mentions.
 * `headingLevel` keeps the outline right wherever the list is placed.
 */
export function ScanFindings({ scan, headingLevel = 3 }: { scan: PackageScan; headingLevel?: 3 | 4 }) {
  const FileHeading = headingLevel === 3 ? 'h3' : 'h4';
  const groups = groupByFile(scan.findings);
  return (
    <div className="scan-findings">
      <p>
        <VerdictBadge scan={scan} prefix /> {VERDICT_MEANING[scan.verdict]}{' '}
        <span className="muted small">
          ({countsText(scan.counts)}; rules {scan.rules_version})
        </span>
      </p>
      {groups.map((group) => (
        <section key={group.file} className="scan-file" aria-label={`Findings in ${group.file}`}>
          <FileHeading>
            <code>{group.file}</code>{' '}
            <span className="muted small">{group.findings.length === 1 ? '1 finding' : `${group.findings.length} findings`}</span>
          </FileHeading>
          <ul className="finding-list">
            {group.findings.map((f, i) => (
              <li key={`${f.rule}-${f.line ?? 0}-${i}`} className="finding">
                <div className="finding-head">
                  <span className={`severity severity-${f.severity}`}>{f.severity}</span>
                  <code className="finding-rule">{f.rule}</code>
                  <span className="muted small">{f.line === null ? 'whole file' : `line ${f.line}`}</span>
                </div>
                {f.excerpt !== '' && (
                  <pre>
                    <code>{f.excerpt}</code>
                  </pre>
                )}
                <p>{f.message}</p>
              </li>
            ))}
          </ul>
        </section>
      ))}
      {scan.omitted > 0 && (
        <p className="muted small">
          {scan.omitted} more {scan.omitted === 1 ? 'finding is' : 'findings are'} counted above but not listed.
        </p>
      )}
      <FileHeading>Links in the package</FileHeading>
      {scan.urls.length === 0 ? (
        <p className="muted">
          The package mentions no external URL. <UnlistedHosts />
        </p>
      ) : (
        <>
          <p className="small">
            Domains: <span className="scan-domains">{scan.domains.join(', ')}</span>
          </p>
          <ul className="url-list" aria-label="URLs the package mentions">
            {scan.urls.map((url) => (
              // Shown as text, never as a link: a package's URLs are what a reviewer checks, not what the console follows.
              <li key={url}>
                <code>{url}</code>
              </li>
            ))}
          </ul>
          <p className="muted small">
            <UnlistedHosts />
          </p>
        </>
      )}
    </div>
  );
}

/**
 * The scanner lists only URLs that lead off the machine: documentation names (example.com, *.test, RFC 2606/6761)
 * and local or private addresses are left out, and the report does not count them, so this says what is left out
 * rather than how many.
 */
function UnlistedHosts() {
  return (
    <>
      Links to documentation and local hosts (example.com, <code>.test</code>, localhost, private addresses) are not listed: they lead
      nowhere outside.
    </>
  );
}
