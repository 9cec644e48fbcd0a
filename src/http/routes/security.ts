import type { Requirement } from '../../domain/actor.js';

/** The OpenAPI `security` list that documents a route's requirement. */
export function security(requirement: Requirement): Record<string, string[]>[] | undefined {
  switch (requirement) {
    case 'public':
      return undefined;
    case 'session':
    case 'admin':
      return [{ session: [] }];
    case 'user':
      return [{ session: [] }, { apiKey: [] }];
    case 'uploader':
      return [{ session: [] }, { apiKey: ['skill:upload'] }];
  }
}
