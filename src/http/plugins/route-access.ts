import type { FastifyInstance, RouteOptions } from 'fastify';
import { REQUIREMENTS } from '../../domain/actor.js';

/** What a route may declare in `config.auth`: a requirement on the caller, or `none` for no credential handling. */
export const ACCESS_LEVELS = [...REQUIREMENTS, 'none'] as const;
export type Access = (typeof ACCESS_LEVELS)[number];

export function isAccess(value: unknown): value is Access {
  return typeof value === 'string' && (ACCESS_LEVELS as readonly string[]).includes(value);
}

function describe(route: RouteOptions): string {
  const methods = Array.isArray(route.method) ? route.method.join(',') : route.method;
  return `${methods} ${route.url}`;
}

/**
 * Refuses to start an app that holds a route without a valid `config.auth`, so that no endpoint is opened by
 * omission — routes added by plugins (the documentation, the console's files) and the HEAD routes Fastify adds
 * for GETs included. The check waits for `ready`: a plugin declares the access of its routes in an onRoute hook
 * of its own scope, and Fastify runs that hook after the ones of the scopes above it.
 */
export function requireDeclaredAccess(app: FastifyInstance): void {
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    routes.push(route);
  });
  app.addHook('onReady', (done) => {
    const undeclared = routes.filter((route) => !isAccess(route.config?.auth)).map(describe);
    routes.length = 0;
    if (undeclared.length === 0) {
      done();
      return;
    }
    done(
      new Error(
        `Every route must declare who may call it in config.auth (one of ${ACCESS_LEVELS.join(', ')}); ` +
          `missing or invalid on: ${undeclared.join('; ')}.`,
      ),
    );
  });
}

/**
 * Declares the access of every route added in `scope`, for plugins that offer no per-route config option
 * (@fastify/static, @fastify/swagger-ui). `scope` must be an encapsulated plugin holding only that plugin's
 * routes, so nothing else is declared by it; the HEAD routes Fastify adds for them pass through it too.
 */
export function declareAccessOfScope(scope: FastifyInstance, access: Access): void {
  scope.addHook('onRoute', (route) => {
    route.config = { ...(route.config ?? {}), auth: access };
  });
}
