import type { Kysely } from 'kysely';

/**
 * Whether each file of a version's package is executable (its owner's execute bit in the archive), so the file list
 * can say so. Versions indexed before this migration list every file as not executable; their archives keep the bits
 * (downloads and installs read them from the archive itself).
 */
export function fileModes() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('version_files')
        .addColumn('executable', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('version_files').dropColumn('executable').execute();
    },
  };
}
