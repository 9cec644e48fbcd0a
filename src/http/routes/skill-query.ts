import type { Static } from 'typebox';
import { validationFailed } from '../../domain/errors.js';
import type { ListQuery } from '../../domain/skills/skills.js';
import { SKILL_STATUSES, type SkillStatus } from '../../domain/skills/statuses.js';
import { pageOf } from '../paging.js';
import type { ListSkillsQuery } from '@skill-registry/api-schemas/skills';

const STATUS_FILTERS = [...SKILL_STATUSES, 'all'] as const;

/** The first non-blank of q, keyword, query, search: the precedence of the search aliases (docs/api-decisions.md). */
export function searchText(query: Static<typeof ListSkillsQuery>): string | undefined {
  for (const value of [query.q, query.keyword, query.query, query.search]) {
    if (value !== undefined && value.trim() !== '') return value;
  }
  return undefined;
}

/**
 * Reads the list query. `status` is validated only when the caller is entitled to it; for everyone
 * else it is ignored, so even a nonsense value must not cause an error.
 */
export function listQuery(query: Static<typeof ListSkillsQuery>, statusHonoured: boolean): ListQuery {
  let status: SkillStatus | 'all' | undefined;
  if (statusHonoured && query.status !== undefined) {
    if (!(STATUS_FILTERS as readonly string[]).includes(query.status)) {
      throw validationFailed([{ field: 'status', message: `must be one of ${STATUS_FILTERS.join(', ')}` }]);
    }
    status = query.status as SkillStatus | 'all';
  }
  const q = searchText(query);
  if (query.sort === 'relevance' && q === undefined) {
    throw validationFailed([{ field: 'sort', message: 'relevance needs a search: give q, or sort by latest, downloads or featured' }]);
  }
  return {
    q,
    category: query.category,
    tags: query.tags,
    featured: query.featured,
    status,
    sort: query.sort ?? (q === undefined ? 'latest' : 'relevance'),
    ...pageOf(query),
  };
}
