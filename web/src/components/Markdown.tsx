import ReactMarkdown, { defaultUrlTransform, type Components, type ExtraProps } from 'react-markdown';
import { Link } from 'react-router-dom';
import remarkGfm from 'remark-gfm';

interface MarkdownProps {
  children: string;
  /**
   * Where a relative link or image of the document points: a console path for links, a URL for images;
   * null leaves it out. Absolute http(s) and mailto URLs are kept as they are.
   */
  resolve?: (href: string, kind: 'link' | 'image') => string | null;
}

const ABSOLUTE = /^[a-z][a-z0-9+.-]*:/i;

/** react-markdown hands each component its syntax-tree node, which is no HTML attribute. */
function htmlProps<P extends ExtraProps>(props: P): Omit<P, 'node'> {
  const copy = { ...props };
  delete copy.node;
  return copy;
}

/**
 * Markdown from a package (CommonMark with GitHub's tables, task lists and autolinks), rendered safely: raw HTML is shown as text (react-markdown's default, kept on
 * purpose), URLs with a script-capable scheme are dropped, external links open without access to this
 * page, and remote images are not loaded (the page's Content-Security-Policy would refuse them anyway), so
 * reading a SKILL.md never runs or fetches anything its author chose.
 */
export function Markdown({ children, resolve }: MarkdownProps) {
  const components: Components = {
    // The page has its own h1; the document's headings sit one level below it.
    h1: (props) => <h2 {...htmlProps(props)} />,
    h2: (props) => <h3 {...htmlProps(props)} />,
    h3: (props) => <h4 {...htmlProps(props)} />,
    h4: (props) => <h5 {...htmlProps(props)} />,
    h5: (props) => <h6 {...htmlProps(props)} />,
    a: ({ href, children: content, ...props }) => {
      if (!href) return <span>{content}</span>;
      if (ABSOLUTE.test(href) || href.startsWith('//')) {
        return (
          <a {...htmlProps(props)} href={href} rel="noopener noreferrer nofollow" target="_blank">
            {content}
          </a>
        );
      }
      if (href.startsWith('#'))
        return (
          <a {...htmlProps(props)} href={href}>
            {content}
          </a>
        );
      const target = resolve ? resolve(href, 'link') : null;
      return target ? <Link to={target}>{content}</Link> : <span>{content}</span>;
    },
    img: ({ src, alt }) => {
      const source = typeof src === 'string' ? src : '';
      // An empty alt text describes nothing, so it falls back like a missing one.
      const label = alt === undefined || alt === '' ? null : alt;
      if (source === '' || ABSOLUTE.test(source) || source.startsWith('//')) {
        return source === '' ? null : (
          <a href={source} rel="noopener noreferrer nofollow" target="_blank" className="md-remote-image">
            Image: {label ?? source}
          </a>
        );
      }
      const target = resolve ? resolve(source, 'image') : null;
      return target ? <img src={target} alt={alt ?? ''} loading="lazy" /> : <span className="muted">[{label ?? 'image'}]</span>;
    },
  };
  return (
    <div className="markdown">
      <ReactMarkdown components={components} remarkPlugins={[remarkGfm]} urlTransform={(url) => defaultUrlTransform(url)}>
        {children}
      </ReactMarkdown>
    </div>
  );
}

/** Resolves `href` against the folder of the package file `from` (both package paths). */
export function resolvePackagePath(from: string, href: string): string | null {
  const clean = href.split('#')[0]!.split('?')[0]!;
  if (clean === '') return null;
  const parts = clean.startsWith('/') ? [] : from.split('/').slice(0, -1);
  for (const segment of clean.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else {
      parts.push(decodeURIComponent(segment));
    }
  }
  return parts.length > 0 ? parts.join('/') : null;
}

/** SKILL.md starts with YAML front matter; the page shows its fields separately and renders the rest. */
export function withoutFrontMatter(text: string): string {
  const match = /^\uFEFF?---\r?\n[\s\S]*?\r?\n(?:---|\.\.\.)\s*(?:\r?\n|$)/.exec(text);
  return match ? text.slice(match[0].length) : text;
}
