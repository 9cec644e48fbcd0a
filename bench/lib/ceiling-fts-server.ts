// The ceiling for distinct searches: a bare node:http server answering `GET /v1/skills?q=…` from SQLite FTS5
// with bm25 ranking over the same skills, in its own process: each word must match (the last one as a prefix
// unless the query ends with a space), Porter stemming and folded diacritics, the same field weights as the
// registry (slug and name 3, tags 2, category 1.5, description 1), a page of rows and the exact total.
import http from 'node:http';
import Database from 'better-sqlite3';

const [databaseFile, portArg] = process.argv.slice(2);
if (!databaseFile || !portArg) throw new Error('usage: ceiling-fts-server <fts.db> <port>');
const db = new Database(databaseFile, { readonly: true });
const page = db.prepare<[string, number, number]>(
  `select id, slug, name, description, category, tags, downloads, updated_at from skills_fts
   where skills_fts match ? order by bm25(skills_fts, 3, 3, 2, 1.5, 1) limit ? offset ?`,
);
const total = db.prepare<[string], { n: number }>('select count(*) as n from skills_fts where skills_fts match ?');

/** The FTS5 query for a search box's text: each word a quoted string, the last one a prefix while typing. */
function matchOf(q: string): string | null {
  const words = q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  if (words.length === 0) return null;
  const typing = !/\s$/u.test(q);
  return words.map((word, i) => `"${word}"${typing && i === words.length - 1 ? '*' : ''}`).join(' ');
}

http
  .createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://ceiling');
    const match = matchOf(url.searchParams.get('q') ?? '');
    const size = Math.min(Number(url.searchParams.get('page_size') ?? 20), 100);
    const number = Number(url.searchParams.get('page') ?? 1);
    const body =
      match === null
        ? { items: [], page: number, page_size: size, total: 0 }
        : { items: page.all(match, size, (number - 1) * size), page: number, page_size: size, total: total.get(match)?.n ?? 0 };
    const bytes = Buffer.from(JSON.stringify(body));
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes.length });
    res.end(bytes);
  })
  .listen(Number(portArg), '127.0.0.1', () => process.send?.('ready'));
