import { MAX_PAGE_DEPTH, MAX_PAGE_SIZE } from '@skill-registry/rules/limits';
import { validationFailed } from '../domain/errors.js';

/** A list query's page and page size, bounded: a page past MAX_PAGE_DEPTH items is refused rather than read. */
export function pageOf(query: { page?: number; page_size?: number }): { page: number; pageSize: number } {
  const page = query.page ?? 1;
  const pageSize = Math.min(query.page_size ?? 20, MAX_PAGE_SIZE);
  if (page * pageSize > MAX_PAGE_DEPTH) {
    throw validationFailed([
      {
        field: 'page',
        message: `must keep page × page_size within the first ${MAX_PAGE_DEPTH} items (at most page ${Math.floor(MAX_PAGE_DEPTH / pageSize)} at page_size ${pageSize})`,
      },
    ]);
  }
  return { page, pageSize };
}
