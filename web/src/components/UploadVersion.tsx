import { useId, useRef, useState, type DragEvent, type SubmitEvent } from 'react';
import { Link } from 'react-router-dom';
import {
  ARCHIVE_FILE_SUFFIXES,
  ARCHIVE_FORMATS,
  ARCHIVE_MEDIA_TYPES,
  detectArchiveFormat,
  FORMAT_SNIFF_BYTES,
  type ArchiveFormat,
} from '@skill-registry/skill-package/format';
import { ApiError, isAbort, type UploadProgress } from '../api/client';
import { versions as versionApi } from '../api/endpoints';
import type { FieldProblem, Validation, Verdict, Version } from '../api/types';
import { CopyButton } from './CopyButton';
import { formatBytes, plural } from '../lib/format';
import { registryInfo } from '../lib/meta';
import { hasProblems, versionProblems } from '../lib/rules';
import { TextArea, TextField } from './Field';
import { useNotify } from './Notices';
import { VerdictBadge } from './Badges';
import { ScanFindings } from './skill/ScanFindings';
import { ErrorMessage, FieldErrorList } from './States';
import { useResource } from '../hooks/useResource';
import { countsText } from '../lib/scan';
import { namePath } from '../lib/names';

interface ChosenFile {
  file: File;
  format: ArchiveFormat | null;
  problem: string | null;
}

/** What the file picker offers: every format's usual file names and media types (only a hint; the bytes decide). */
const ACCEPT = ARCHIVE_FORMATS.flatMap((f) => [...ARCHIVE_FILE_SUFFIXES[f], ARCHIVE_MEDIA_TYPES[f]]).join(',');

/** The archive's format by its first bytes, with the registry's own detector (never by the file name). */
async function sniff(file: File): Promise<ArchiveFormat | null> {
  return detectArchiveFormat(new Uint8Array(await file.slice(0, FORMAT_SNIFF_BYTES).arrayBuffer()));
}

async function inspect(file: File): Promise<ChosenFile> {
  if (file.size === 0) return { file, format: null, problem: 'The file is empty.' };
  if (file.size > registryInfo.maxUploadBytes) {
    return {
      file,
      format: null,
      problem: `The file is ${formatBytes(file.size)}; this registry accepts packages up to ${formatBytes(registryInfo.maxUploadBytes)}.`,
    };
  }
  let format: ArchiveFormat | null;
  try {
    format = await sniff(file);
  } catch {
    // The browser lost access to the file (moved, deleted, or a folder picked by mistake).
    return { file, format: null, problem: 'The file could not be read. Choose it again.' };
  }
  if (format === null)
    return {
      file,
      format,
      problem: 'This is not a zip or a gzip-compressed tar archive. Pack the skill folder (with its SKILL.md) as .zip or .tar.gz.',
    };
  return { file, format, problem: null };
}

/** The next patch version after `latest`, as a suggestion. */
function suggestNext(latest: string | null): string {
  const match = latest ? /^(\d+)\.(\d+)\.(\d+)$/.exec(latest) : null;
  return match ? `${match[1]}.${match[2]}.${Number(match[3]) + 1}` : '1.0.0';
}

interface UploadVersionProps {
  slug: string;
  latest: string | null;
  onUploaded: (version: Version) => void;
}

/**
 * Upload a version: drag a package in or pick it, see it checked in the browser (size, archive type),
 * optionally have the registry check it without storing it, then upload it with real progress. The
 * registry's refusals are shown entry by entry.
 */
export function UploadVersion({ slug, latest, onUploaded }: UploadVersionProps) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const abortRef = useRef<AbortController | null>(null);
  const notify = useNotify();
  const [chosen, setChosen] = useState<ChosenFile | null>(null);
  const [dragging, setDragging] = useState(false);
  const [fields, setFields] = useState({ version: '', changelog: '', metadata: '' });
  const [dirty, setDirty] = useState<Record<string, boolean>>({});
  const [submitted, setSubmitted] = useState(false);
  const [phase, setPhase] = useState<'idle' | 'checking' | 'uploading' | 'processing'>('idle');
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [validation, setValidation] = useState<Validation | null>(null);
  const [uploaded, setUploaded] = useState<Version | null>(null);

  const problems = versionProblems(fields);
  const show = (field: keyof typeof fields) => (dirty[field] === true || submitted ? problems[field] : undefined);
  const busy = phase !== 'idle';

  async function choose(file: File | undefined) {
    if (!file) return;
    setError(null);
    setValidation(null);
    setUploaded(null);
    setChosen(await inspect(file));
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    if (!busy) void choose(event.dataTransfer.files[0]);
  }

  function form(withFields: boolean): FormData {
    const data = new FormData();
    if (withFields) {
      data.append('version', fields.version.trim());
      if (fields.changelog.trim() !== '') data.append('changelog', fields.changelog);
      if (fields.metadata.trim() !== '') data.append('metadata', fields.metadata);
    }
    data.append('file', chosen!.file, chosen!.file.name);
    return data;
  }

  function onProgress(p: UploadProgress) {
    setProgress(p);
    if (p.loaded >= p.total) setPhase((current) => (current === 'uploading' ? 'processing' : current));
  }

  async function check() {
    if (!chosen || chosen.problem) return;
    setPhase('checking');
    setError(null);
    setValidation(null);
    try {
      setValidation(await versionApi.validate(form(false), () => undefined));
    } catch (e) {
      setError(e);
    } finally {
      setPhase('idle');
    }
  }

  async function submit(event: SubmitEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (!chosen || chosen.problem || hasProblems(problems)) return;
    const controller = new AbortController();
    abortRef.current = controller;
    setPhase('uploading');
    setProgress({ loaded: 0, total: chosen.file.size });
    setError(null);
    setValidation(null);
    try {
      const version = await versionApi.upload(slug, form(true), onProgress, controller.signal);
      setUploaded(version);
      setChosen(null);
      setFields({ version: '', changelog: '', metadata: '' });
      setDirty({});
      setSubmitted(false);
      if (inputRef.current) inputRef.current.value = '';
      notify(`Version ${version.version} uploaded.`);
      onUploaded(version);
    } catch (e) {
      if (isAbort(e)) notify('Upload cancelled.', 'info');
      else setError(e);
    } finally {
      abortRef.current = null;
      setPhase('idle');
      setProgress(null);
    }
  }

  const percent = progress && progress.total > 0 ? Math.min(100, Math.round((progress.loaded / progress.total) * 100)) : 0;

  return (
    <form className="upload" onSubmit={(e) => void submit(e)} noValidate aria-busy={busy}>
      {uploaded && (
        <div className={`alert ${scanTone(uploaded.scan?.verdict)}`} role="status">
          <p className="alert-title">Version {uploaded.version} uploaded</p>
          <p>
            {plural(uploaded.file_count, 'file')}, {formatBytes(uploaded.size)} {uploaded.archive_format}.{' '}
            <Link to={`/skills/${namePath(slug)}?version=${encodeURIComponent(uploaded.version)}`}>See its SKILL.md</Link> ·{' '}
            <Link to={`/skills/${namePath(slug)}?version=${encodeURIComponent(uploaded.version)}&tab=files`}>Browse its files</Link>
          </p>
          <UploadedScan slug={slug} version={uploaded} />
          {uploaded.warnings.length > 0 && (
            <>
              <p>The registry accepted it with {plural(uploaded.warnings.length, 'warning')}:</p>
              <ul>
                {uploaded.warnings.map((w) => (
                  <li key={`${w.code}-${w.message}`}>{w.message}</li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
      <div
        className={`dropzone${dragging ? ' dragging' : ''}${chosen?.problem ? ' invalid' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <svg viewBox="0 0 24 24" aria-hidden="true" className="dropzone-icon">
          <path
            d="M12 16V4m0 0-4 4m4-4 4 4M4 16v3a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-3"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.8"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
        <p>
          Drag a package here, or{' '}
          <label htmlFor={`${id}-file`} className="link-button">
            choose a file
          </label>
        </p>
        <input
          ref={inputRef}
          id={`${id}-file`}
          className="visually-hidden-input"
          type="file"
          accept={ACCEPT}
          onChange={(e) => void choose(e.target.files?.[0])}
          disabled={busy}
          aria-describedby={`${id}-file-hint ${id}-file-state`}
        />
        <p className="hint" id={`${id}-file-hint`}>
          A .zip or .tar.gz holding SKILL.md at its root (or in one top-level folder), up to {formatBytes(registryInfo.maxUploadBytes)}.
        </p>
        <div id={`${id}-file-state`} aria-live="polite">
          {chosen && (
            <p className={chosen.problem ? 'field-error' : 'chosen-file'}>
              <strong>{chosen.file.name}</strong> · {formatBytes(chosen.file.size)}
              {chosen.format && ` · ${chosen.format}`}
              {chosen.problem && (
                <>
                  <br />
                  {chosen.problem}
                </>
              )}
            </p>
          )}
          {submitted && !chosen && <p className="field-error">Choose a package to upload.</p>}
        </div>
      </div>

      <div className="form-row">
        <TextField
          label="Version"
          required
          value={fields.version}
          placeholder={suggestNext(latest)}
          onChange={(e) => {
            setFields((f) => ({ ...f, version: e.target.value }));
            setDirty((d) => ({ ...d, version: true }));
          }}
          error={show('version')}
          hint={
            latest
              ? `Semantic versioning; the latest is ${latest}. Versions are immutable.`
              : 'Semantic versioning, e.g. 1.0.0. Versions are immutable.'
          }
          spellCheck={false}
          autoCapitalize="off"
          disabled={busy}
        />
      </div>
      <TextArea
        label="Changelog"
        optional
        rows={3}
        value={fields.changelog}
        onChange={(e) => {
          setFields((f) => ({ ...f, changelog: e.target.value }));
          setDirty((d) => ({ ...d, changelog: true }));
        }}
        error={show('changelog')}
        disabled={busy}
      />
      <details className="advanced">
        <summary>Metadata (JSON)</summary>
        <TextArea
          label="Metadata"
          optional
          rows={3}
          value={fields.metadata}
          placeholder='{"homepage": "https://example.com"}'
          onChange={(e) => {
            setFields((f) => ({ ...f, metadata: e.target.value }));
            setDirty((d) => ({ ...d, metadata: true }));
          }}
          error={show('metadata')}
          hint="A JSON object stored with the version."
          spellCheck={false}
          disabled={busy}
        />
      </details>

      {(phase === 'uploading' || phase === 'processing') && (
        <div className="progress">
          <label htmlFor={`${id}-progress`}>
            {phase === 'uploading' ? `Uploading… ${percent}%` : 'Uploaded; the registry is checking the package…'}
          </label>
          <progress id={`${id}-progress`} max={100} value={percent} />
          {progress && (
            <span className="muted small">
              {formatBytes(progress.loaded)} of {formatBytes(progress.total)}
            </span>
          )}
        </div>
      )}

      {validation && <ValidationResult validation={validation} />}
      {error !== null && <UploadError error={error} />}

      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {phase === 'uploading' || phase === 'processing' ? 'Uploading…' : 'Upload version'}
        </button>
        <button type="button" className="button" onClick={() => void check()} disabled={busy || chosen?.problem !== null}>
          {phase === 'checking' ? 'Checking…' : 'Check package only'}
        </button>
        {(phase === 'uploading' || phase === 'processing') && (
          <button type="button" className="button button-ghost" onClick={() => abortRef.current?.abort()}>
            Cancel upload
          </button>
        )}
      </div>
    </form>
  );
}

function UploadError({ error }: { error: unknown }) {
  if (error instanceof ApiError && error.errors.length > 0) {
    return (
      <div className="alert alert-error" role="alert">
        <p className="alert-title">The registry refused this upload</p>
        <p>{error.problem.detail}</p>
        <FieldErrorList errors={error.errors} />
        <FrontMatterFixes errors={error.errors} />
      </div>
    );
  }
  return <ErrorMessage error={error} title="The upload failed" />;
}

function ValidationResult({ validation }: { validation: Validation }) {
  if (!validation.valid) {
    return (
      <div className="alert alert-error" role="status">
        <p className="alert-title">This package would be refused</p>
        <FieldErrorList errors={validation.errors} />
        <FrontMatterFixes errors={validation.errors} />
      </div>
    );
  }
  return (
    <div className={`alert ${scanTone(validation.scan?.verdict)}`} role="status">
      <p className="alert-title">This package passes every check</p>
      <p>
        {plural(validation.files.length, 'file')}
        {validation.skill_md ? `; SKILL.md names it “${String(validation.skill_md.name)}”.` : '; it has no SKILL.md.'}
      </p>
      {validation.warnings.length > 0 && (
        <ul>
          {validation.warnings.map((w) => (
            <li key={`${w.code}-${w.message}`}>{w.message}</li>
          ))}
        </ul>
      )}
      {validation.scan &&
        (validation.scan.verdict === 'clean' ? (
          <p>
            Scan: <VerdictBadge scan={validation.scan} /> nothing found above information level.
          </p>
        ) : (
          <ScanFindings scan={validation.scan} headingLevel={4} />
        ))}
    </div>
  );
}

/**
 * SKILL.md front matter the registry refuses only because a value needs quoting: the corrected lines and the whole
 * corrected front matter, ready to copy into SKILL.md (or let `skill-registry publish --fix-front-matter` write it).
 */
function FrontMatterFixes({ errors }: { errors: readonly FieldProblem[] }) {
  return errors.map((e, i) => {
    const fix = e.fix;
    if (fix === undefined) return null;
    const whole = `---\n${fix.front_matter}---\n`;
    return (
      <div className="front-matter-fix" key={`${e.entry ?? ''}-${i}`}>
        <p>
          Quoting {fix.changes.length === 1 ? 'a value' : 'the values'} makes the front matter of{' '}
          <code className="entry">{e.entry ?? 'SKILL.md'}</code> valid YAML:
        </p>
        <ul>
          {fix.changes.map((c) => (
            <li key={c.line}>
              line {c.line} should read <code>{c.corrected}</code>
            </li>
          ))}
        </ul>
        <p>The corrected front matter, to replace the one at the top of SKILL.md:</p>
        <pre aria-label="Corrected front matter">
          <code>{whole}</code>
        </pre>
        <CopyButton text={whole} label="Copy the corrected front matter" />
      </div>
    );
  });
}

/** Accepted is good news, unless the scanner has something to say. */
function scanTone(verdict: Verdict | undefined): string {
  return verdict === 'suspicious' || verdict === 'malicious' ? 'alert-warning' : 'alert-success';
}

/** The scanner's verdict on the version just uploaded, and what it found when it found anything. */
function UploadedScan({ slug, version }: { slug: string; version: Version }) {
  const scan = version.scan;
  const needsReport = scan?.verdict !== undefined && scan.verdict !== 'clean';
  const { resource } = useResource(
    (signal) => (needsReport ? versionApi.scan(slug, version.version, signal) : Promise.resolve(null)),
    [slug, version.version, needsReport],
  );
  if (!scan)
    return (
      <p>
        Scan: <VerdictBadge scan={null} />
      </p>
    );
  if (scan.verdict === 'clean') {
    return (
      <p>
        Scan: <VerdictBadge scan={scan} /> nothing found above information level.
      </p>
    );
  }
  return (
    <>
      {scan.verdict === 'malicious' && (
        <p className="danger-text">
          This version is quarantined: only you and administrators can download it, and it never becomes the latest version.
        </p>
      )}
      {resource.data ? (
        <ScanFindings scan={resource.data} headingLevel={4} />
      ) : resource.status === 'error' ? (
        <ErrorMessage error={resource.error} title="The scan report could not be loaded" />
      ) : (
        <p>
          Scan: <VerdictBadge scan={scan} /> {countsText(scan.findings)}
        </p>
      )}
    </>
  );
}
