/** What the search index holds of a skill, and what a search or list asks and answers. */
import type { Highlights } from './highlights.js';

/** What the index holds of one skill. */
export interface SearchDocument {
  id: string;
  slug: string;
  name: string;
  description: string;
  category: string | null;
  tags: readonly string[];
  status: string;
  ownerId: string;
  featured: boolean;
  downloads: number;
  /** Milliseconds since the epoch. */
  updatedAt: number;
}

export type SearchSort = 'relevance' | 'latest' | 'downloads' | 'featured';

export interface SearchQuery {
  text: string;
  statuses: readonly string[] | 'all';
  /** Only the skills of these owners (a user's id, `org:<id>` for an organisation's), when given. */
  ownerIds?: readonly string[] | undefined;
  category?: string | undefined;
  tags: readonly string[];
  featured?: boolean | undefined;
  sort: SearchSort;
  offset: number;
  limit: number;
}

export interface SearchHit {
  id: string;
  highlights: Highlights;
}

export interface SearchAnswer {
  hits: SearchHit[];
  total: number;
  /** `partial` when no skill matched every word and the best partial matches were returned instead. */
  match: 'full' | 'partial';
}
