/**
 * A value of SKILL.md's front matter as a person reads it: text as text, a list as a list, a map (`metadata`, say)
 * as its keys and values, nested as deep as the YAML goes. Never raw JSON.
 */
export function FrontMatterValue({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="fm-empty">empty</span>;
  if (typeof value === 'string') return value === '' ? <span className="fm-empty">empty</span> : <span className="pre-line">{value}</span>;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return <span>{String(value)}</span>;
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="fm-empty">none</span>;
    return (
      <ul className="fm-list">
        {(value as unknown[]).map((item, i) => (
          <li key={i}>
            <FrontMatterValue value={item} />
          </li>
        ))}
      </ul>
    );
  }
  if (typeof value === 'object') {
    const entries: [string, unknown][] = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return <span className="fm-empty">none</span>;
    return (
      <dl className="fm-map">
        {entries.map(([key, item]) => (
          <div key={key}>
            <dt>{key}</dt>
            <dd>
              <FrontMatterValue value={item} />
            </dd>
          </div>
        ))}
      </dl>
    );
  }
  // Functions and symbols cannot come from JSON.
  return null;
}
