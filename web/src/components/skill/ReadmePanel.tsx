import { Link } from 'react-router-dom';
import { versions as versionApi } from '../../api/endpoints';
import type { FileList, Version } from '../../api/types';
import { useResource } from '../../hooks/useResource';
import { Markdown, resolvePackagePath, withoutFrontMatter } from '../Markdown';
import { EmptyState, ErrorMessage, Loading } from '../States';
import { FrontMatterValue } from './FrontMatterValue';
import { skillMdPath } from './skillMd';

interface ReadmePanelProps {
  slug: string;
  version: Version;
  files: FileList;
  /** The URL of the file browser showing `path`. */
  fileHref: (path: string) => string;
}

/** The version's SKILL.md rendered, with its front matter as a table and the registry's warnings. */
export function ReadmePanel({ slug, version, files, fileHref }: ReadmePanelProps) {
  const path = skillMdPath(files.items);
  const { resource, reload } = useResource(
    (signal) => (path ? versionApi.fileText(slug, version.version, path, signal) : Promise.resolve(null)),
    [slug, version.version, path],
  );
  const frontMatter = version.skill_md ? Object.entries(version.skill_md).filter(([key]) => key !== 'name' && key !== 'description') : [];

  return (
    <div className="readme">
      {version.warnings.length > 0 && (
        <div className="alert alert-warning">
          <p className="alert-title">
            The registry noted {version.warnings.length === 1 ? 'a departure' : 'departures'} from the Agent Skills format
          </p>
          <ul>
            {version.warnings.map((w) => (
              <li key={`${w.code}-${w.message}`}>{w.message}</li>
            ))}
          </ul>
        </div>
      )}
      {frontMatter.length > 0 && (
        <dl className="front-matter">
          {frontMatter.map(([key, value]) => (
            <div key={key}>
              <dt>{key}</dt>
              <dd>
                <FrontMatterValue value={value} />
              </dd>
            </div>
          ))}
        </dl>
      )}
      {!path && <EmptyState title="No SKILL.md in this version">The package has no SKILL.md at its root or one folder down.</EmptyState>}
      {path && resource.status === 'loading' && <Loading label="Loading SKILL.md…" />}
      {path && resource.status === 'error' && <ErrorMessage error={resource.error} retry={reload} />}
      {path && resource.status === 'ready' && resource.data && (
        <>
          <p className="readme-source muted small">
            <Link to={fileHref(path)}>{path}</Link>
          </p>
          <Markdown
            resolve={(href, kind) => {
              const target = resolvePackagePath(path, href);
              if (target === null || !files.items.some((f) => f.path === target)) return null;
              return kind === 'image' ? versionApi.fileUrl(slug, version.version, target) : fileHref(target);
            }}
          >
            {withoutFrontMatter(resource.data.text)}
          </Markdown>
        </>
      )}
    </div>
  );
}
