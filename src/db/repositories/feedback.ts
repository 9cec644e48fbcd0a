import type { Insertable, Kysely } from 'kysely';
import type { Database, FeedbackTable } from '../schema.js';

export interface FeedbackFilter {
  skillId: string;
  version?: string;
  rating?: number;
  limit: number;
  offset: number;
}

export function feedbackRepository(db: Kysely<Database>) {
  function filtered(filter: FeedbackFilter) {
    let query = db.selectFrom('feedback as f').where('f.skill_id', '=', filter.skillId);
    if (filter.version !== undefined) query = query.where('f.version', '=', filter.version);
    if (filter.rating !== undefined) query = query.where('f.rating', '=', filter.rating);
    return query;
  }

  return {
    async insert(row: Insertable<FeedbackTable>): Promise<void> {
      await db.insertInto('feedback').values(row).execute();
    },

    async list(filter: FeedbackFilter) {
      const [rows, summary] = await Promise.all([
        filtered(filter)
          .leftJoin('users as u', 'u.id', 'f.author_id')
          .select([
            'f.id',
            'f.skill_id',
            'f.version',
            'f.rating',
            'f.comment',
            'f.author_id',
            'u.username as author_username',
            'f.created_at',
          ])
          .orderBy('f.created_at', 'desc')
          .orderBy('f.id', 'desc')
          .limit(filter.limit)
          .offset(filter.offset)
          .execute(),
        filtered(filter)
          .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.avg<number | null>('f.rating').as('average')])
          .executeTakeFirstOrThrow(),
      ]);
      return { rows, total: summary.n, average: summary.average };
    },
  };
}

export type FeedbackRepository = ReturnType<typeof feedbackRepository>;
