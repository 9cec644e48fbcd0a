// The bulk path that fills a registry's database before the registry starts: one owner, then every generated
// skill (published) with its tags, written straight into the tables the registry reads.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { newId } from '../../src/lib/ids.js';
import type { GeneratedSkill } from './generate.js';

export interface BenchDatabase {
  kind: 'sqlite' | 'postgres';
  /** What the bench itself opens to seed. */
  config: DatabaseConfig;
  /** Environment for the registry process, so it opens the same database. */
  env: Record<string, string>;
  /** A description for reports, without credentials. */
  label: string;
  /** Removes what the bench created (the PostgreSQL schema; the SQLite file goes with its data directory). */
  dispose(): Promise<void>;
}

/**
 * SQLite in the registry's data directory by default; with a postgres:// `databaseUrl`, a fresh schema in that
 * database (pg_trgm, which migration 0001 needs, stays in public, which stays on the search path), dropped by `dispose`.
 */
export async function benchDatabase(dataDir: string, databaseUrl: string | undefined): Promise<BenchDatabase> {
  if (!databaseUrl || !/^postgres(ql)?:\/\//i.test(databaseUrl)) {
    const file = path.join(dataDir, 'registry.db');
    return { kind: 'sqlite', config: { kind: 'sqlite', file }, env: {}, label: 'SQLite', dispose: () => Promise.resolve() };
  }
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  const admin = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  const version = await admin(async (client) => {
    try {
      await client.query('create extension if not exists pg_trgm with schema public');
    } catch (error) {
      // Another process may create it at the same moment.
      if (!String(error).includes('already exists') && (error as { code?: string }).code !== '23505') throw error;
    }
    await client.query(`create schema ${schema}`);
    const { rows } = await client.query<{ v: string }>("select current_setting('server_version') as v");
    return rows[0]?.v ?? '?';
  });
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema},public`);
  const where = `${url.hostname}:${url.port || 5432}${url.pathname}`;
  return {
    kind: 'postgres',
    config: { kind: 'postgres', url: databaseUrl, schema },
    env: { DATABASE_URL: url.toString() },
    label: `PostgreSQL ${version} (${where}, schema ${schema})`,
    dispose: () =>
      admin(async (client) => {
        await client.query(`drop schema if exists ${schema} cascade`);
      }),
  };
}

export interface SeedReport {
  ownerId: string;
  skills: number;
  tags: number;
  seconds: number;
}

/** Migrates the database and writes an owner and every skill (published) with its tags. */
export async function seedSkills(database: BenchDatabase, rows: readonly GeneratedSkill[]): Promise<SeedReport> {
  const started = performance.now();
  // Seeding a million rows may run statements longer than the registry's own limit allows a request.
  const handle = openDatabase({ ...database.config, statementTimeoutMs: 0 });
  try {
    await handle.migrate();
    const ownerId = newId();
    const now = new Date().toISOString();
    // The password hash is not a hash: nobody logs in as the owner; an admin session manages its skills.
    await handle.db
      .insertInto('users')
      .values({
        id: ownerId,
        username: 'bench-owner',
        email: 'bench-owner@localhost',
        password_hash: '!',
        role: 'user',
        disabled: 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
    let tags = 0;
    if (handle.sqlite) {
      const sqlite = handle.sqlite;
      const insertSkill = sqlite.prepare(
        `insert into skills (id, slug, name, description, category, tags, status, featured, owner_id, downloads,
           created_at, updated_at, published_at)
         values (?, ?, ?, ?, ?, ?, 'published', ?, ?, ?, ?, ?, ?)`,
      );
      const insertTag = sqlite.prepare('insert into skill_tags (skill_id, tag) values (?, ?)');
      // One transaction, two prepared statements.
      sqlite.transaction(() => {
        for (const r of rows) {
          insertSkill.run(
            r.id,
            r.slug,
            r.name,
            r.description,
            r.category,
            JSON.stringify(r.tags),
            r.featured,
            ownerId,
            r.downloads,
            r.updatedAt,
            r.updatedAt,
            r.updatedAt,
          );
          for (const tag of r.tags) insertTag.run(r.id, tag);
          tags += r.tags.length;
        }
      })();
    } else {
      const BATCH = 10_000;
      for (let i = 0; i < rows.length; i += BATCH) {
        const batch = rows.slice(i, i + BATCH);
        const skillIds: string[] = [];
        const tagNames: string[] = [];
        for (const r of batch) {
          for (const tag of r.tags) {
            skillIds.push(r.id);
            tagNames.push(tag);
          }
        }
        tags += tagNames.length;
        await handle.db.transaction().execute(async (trx) => {
          await sql`
            insert into skills (id, slug, name, description, category, tags, status, featured, owner_id, downloads,
              created_at, updated_at, published_at)
            select d.id, d.slug, d.name, d.description, d.category, d.tags, 'published', d.featured, ${ownerId}, d.downloads,
              d.updated_at, d.updated_at, d.updated_at
            from unnest(
              ${batch.map((r) => r.id)}::text[], ${batch.map((r) => r.slug)}::text[], ${batch.map((r) => r.name)}::text[],
              ${batch.map((r) => r.description)}::text[], ${batch.map((r) => r.category)}::text[],
              ${batch.map((r) => JSON.stringify(r.tags))}::text[], ${batch.map((r) => r.featured)}::int[],
              ${batch.map((r) => r.downloads)}::bigint[], ${batch.map((r) => r.updatedAt)}::timestamptz[]
            ) as d(id, slug, name, description, category, tags, featured, downloads, updated_at)
          `.execute(trx);
          await sql`
            insert into skill_tags (skill_id, tag)
            select * from unnest(${skillIds}::text[], ${tagNames}::text[])
          `.execute(trx);
        });
      }
      // What autovacuum would do shortly after a load this size; the planner needs the statistics.
      await sql`analyze skills`.execute(handle.db);
      await sql`analyze skill_tags`.execute(handle.db);
    }
    return { ownerId, skills: rows.length, tags, seconds: (performance.now() - started) / 1000 };
  } finally {
    await handle.close();
  }
}
