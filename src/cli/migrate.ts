import type { Config } from '../config.js';
import { openDatabase } from '../db/database.js';

export async function runMigrate(config: Config): Promise<number> {
  const database = openDatabase(config.database);
  try {
    const { applied } = await database.migrate();
    console.log(applied.length === 0 ? 'The schema is up to date.' : `Applied: ${applied.join(', ')}`);
    return 0;
  } finally {
    await database.close();
  }
}
