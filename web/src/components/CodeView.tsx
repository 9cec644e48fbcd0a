import type { CSSProperties } from 'react';

/** Where a file name may wrap: after a path separator, underscore, hyphen or dot, never inside a word. */
export function breakable(name: string) {
  const parts = name.split(/(?<=[/_.-])/);
  return parts.map((part, i) => (
    <span key={i}>
      {part}
      {i < parts.length - 1 && <wbr />}
    </span>
  ));
}

/**
 * A text file shown as it is, each line numbered. The numbers are drawn by the stylesheet from `data-line`, so they
 * are not part of the text: a selection copied from the preview is the file's own lines.
 */
export function CodeView({ text }: { text: string }) {
  const lines = text.split('\n');
  // A final line break ends the last line; it does not start an empty one.
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  // Set through the DOM by React, which the page's Content-Security-Policy (no inline styles) allows.
  const style = { '--line-digits': String(lines.length).length } as CSSProperties;
  return (
    <pre className="code" tabIndex={0} style={style}>
      <code>
        {lines.map((line, i) => (
          <span key={i} className="code-line" data-line={i + 1}>
            {line}
            {'\n'}
          </span>
        ))}
      </code>
    </pre>
  );
}
