import { useState } from 'react';
import { Link } from 'react-router-dom';
import { isTextPath } from '@skill-registry/skill-package/paths';
import { versions as versionApi } from '../../api/endpoints';
import type { FileEntry, FileList } from '../../api/types';
import { useResource } from '../../hooks/useResource';
import { formatBytes, plural } from '../../lib/format';
import { breakable, CodeView } from '../CodeView';
import { Markdown, resolvePackagePath } from '../Markdown';
import { EmptyState, ErrorMessage, Loading } from '../States';

/** Files larger than this are offered for download rather than previewed. */
const PREVIEW_MAX_BYTES = 512 * 1024;

interface FilesPanelProps {
  slug: string;
  version: string;
  files: FileList;
  selected: string | null;
  fileHref: (path: string) => string;
}

interface TreeNode {
  name: string;
  path: string;
  file?: FileEntry;
  children: Map<string, TreeNode>;
}

function buildTree(files: readonly FileEntry[]): TreeNode {
  const root: TreeNode = { name: '', path: '', children: new Map() };
  for (const file of files) {
    const parts = file.path.split('/');
    let node = root;
    parts.forEach((part, i) => {
      let child = node.children.get(part);
      if (!child) {
        child = { name: part, path: parts.slice(0, i + 1).join('/'), children: new Map() };
        node.children.set(part, child);
      }
      node = child;
    });
    node.file = file;
  }
  return root;
}

/** Folders first, then files, each by name. */
function sorted(node: TreeNode): TreeNode[] {
  return [...node.children.values()].sort((a, b) => {
    const aDir = a.file === undefined;
    const bDir = b.file === undefined;
    if (aDir !== bDir) return aDir ? -1 : 1;
    return a.name.localeCompare(b.name);
  });
}

function Tree({ node, selected, fileHref }: { node: TreeNode; selected: string | null; fileHref: (path: string) => string }) {
  return (
    <ul className="tree">
      {sorted(node).map((child) =>
        child.file ? (
          <li key={child.path} className="tree-file">
            <Link
              to={fileHref(child.path)}
              replace
              aria-current={child.path === selected ? 'true' : undefined}
              className={child.path === selected ? 'selected' : undefined}
            >
              <span className="tree-name">{breakable(child.name)}</span>
              {child.file.executable && (
                <span className="badge tree-exec" title="Executable: installed with mode 0755">
                  exec
                </span>
              )}
              <span className="tree-size">{formatBytes(child.file.size)}</span>
            </Link>
          </li>
        ) : (
          <li key={child.path} className="tree-folder">
            {/* Open at first, so every file is in sight; a long folder can be folded away. */}
            <details open>
              <summary className="tree-folder-name">{breakable(`${child.name}/`)}</summary>
              <Tree node={child} selected={selected} fileHref={fileHref} />
            </details>
          </li>
        ),
      )}
    </ul>
  );
}

/** The version's files as a tree, with a preview of the selected text file. */
export function FilesPanel({ slug, version, files, selected, fileHref }: FilesPanelProps) {
  const entry = selected ? files.items.find((f) => f.path === selected) : undefined;
  if (files.items.length === 0) return <EmptyState title="This version lists no files" />;
  return (
    <div className="files">
      <div className="files-tree">
        <p className="muted small">
          {plural(files.file_count, 'file')}, {formatBytes(files.total_size)} unpacked
        </p>
        <Tree node={buildTree(files.items)} selected={selected} fileHref={fileHref} />
      </div>
      <div className="files-preview">
        {entry ? (
          <FilePreview slug={slug} version={version} file={entry} fileHref={fileHref} files={files} />
        ) : (
          <EmptyState title={selected ? 'No such file in this version' : 'Select a file to preview it'} />
        )}
      </div>
    </div>
  );
}

function FilePreview({
  slug,
  version,
  file,
  files,
  fileHref,
}: {
  slug: string;
  version: string;
  file: FileEntry;
  files: FileList;
  fileHref: (path: string) => string;
}) {
  const previewable = isTextPath(file.path) && file.size <= PREVIEW_MAX_BYTES;
  const isMarkdown = /\.(md|markdown|mdx)$/i.test(file.path);
  const [rendered, setRendered] = useState(true);
  const { resource, reload } = useResource(
    (signal) => (previewable ? versionApi.fileText(slug, version, file.path, signal) : Promise.resolve(null)),
    [slug, version, file.path, previewable],
  );
  const url = versionApi.fileUrl(slug, version, file.path);
  return (
    <section aria-label={`Preview of ${file.path}`}>
      <div className="preview-bar">
        <code className="preview-path">{file.path}</code>
        <span className="muted small">
          {formatBytes(file.size)}
          {file.executable ? ' · executable (installed with mode 0755)' : ''}
        </span>
        {isMarkdown && previewable && (
          <button type="button" className="button button-small" onClick={() => setRendered((r) => !r)} aria-pressed={!rendered}>
            {rendered ? 'Show source' : 'Show rendered'}
          </button>
        )}
        <a className="button button-small" href={url} download={file.path.split('/').pop()}>
          Download file
        </a>
      </div>
      {!previewable && (
        <EmptyState title={isTextPath(file.path) ? 'Too large to preview' : 'Binary file'}>
          {isTextPath(file.path) ? `Files over ${formatBytes(PREVIEW_MAX_BYTES)} are not previewed.` : 'Only text files are previewed.'}{' '}
          Download it to look inside.
        </EmptyState>
      )}
      {previewable && resource.status === 'loading' && <Loading label="Loading file…" />}
      {previewable && resource.status === 'error' && <ErrorMessage error={resource.error} retry={reload} />}
      {previewable &&
        resource.status === 'ready' &&
        resource.data &&
        (isMarkdown && rendered ? (
          <Markdown
            resolve={(href, kind) => {
              const target = resolvePackagePath(file.path, href);
              if (target === null || !files.items.some((f) => f.path === target)) return null;
              return kind === 'image' ? versionApi.fileUrl(slug, version, target) : fileHref(target);
            }}
          >
            {resource.data.text}
          </Markdown>
        ) : (
          <CodeView text={resource.data.text} />
        ))}
    </section>
  );
}
