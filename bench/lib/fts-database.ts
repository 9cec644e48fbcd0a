import Database from 'better-sqlite3';
import type { GeneratedSkill } from './generate.js';

/** Writes the search ceiling's SQLite FTS5 database (bench/lib/ceiling-fts-server.ts) from the registry's rows. */
export function buildFtsDatabase(file: string, rows: readonly GeneratedSkill[]): void {
  const db = new Database(file);
  try {
    db.pragma('journal_mode = off');
    db.exec(`create virtual table skills_fts using fts5(
      slug, name, tags, category, description, id unindexed, downloads unindexed, updated_at unindexed,
      tokenize = 'porter unicode61 remove_diacritics 2')`);
    const insert = db.prepare('insert into skills_fts values (?, ?, ?, ?, ?, ?, ?, ?)');
    db.transaction(() => {
      for (const row of rows) {
        insert.run(row.slug, row.name, row.tags.join(' '), row.category, row.description, row.id, row.downloads, row.updatedAt);
      }
    })();
    db.exec(`insert into skills_fts(skills_fts) values ('optimize')`);
  } finally {
    db.close();
  }
}
