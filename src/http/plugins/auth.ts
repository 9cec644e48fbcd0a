import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ANONYMOUS, requireActor, type Actor, type AuthenticatedActor, type Requirement } from '../../domain/actor.js';
import { AppError, unauthenticated } from '../../domain/errors.js';
import type { Config } from '../../config.js';
import { clearSessionCookie, sessionCookie } from '../cookies.js';
import type { RouteServices } from '../route-services.js';
import { requireDeclaredAccess, type Access } from './route-access.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Who may call the route; `none` skips credential handling altogether (health, docs, disabled operations).
     * Every route must declare it: the app refuses to start otherwise (./route-access.ts).
     */
    auth?: Access;
  }
  interface FastifyRequest {
    actor: Actor;
  }
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A request no route matched goes to the not-found handler (the console's pages, the API's 404). Its credentials
 * are read as on a public route, so a wrong key is still reported and a signed-in browser's page loads count per user.
 */
const NOT_FOUND_ACCESS: Access = 'public';

/** The access the request's route declared, or null if it declared none (the app refuses to start with such a route). */
function accessOf(request: FastifyRequest, declared: Access | undefined): Access | null {
  if (declared !== undefined) return declared;
  return request.is404 ? NOT_FOUND_ACCESS : null;
}

/** The authenticated caller of a route whose requirement already excluded anonymous callers. */
export function caller(request: FastifyRequest): AuthenticatedActor {
  if (request.actor.kind === 'anonymous') throw unauthenticated();
  return request.actor;
}

/** The key of an `Authorization: Bearer <key>` header, or null for any other form. */
export function bearerToken(authorization: string): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  return match ? match[1]! : null;
}

/**
 * A browser sends `Origin` with every cross-origin write; a request naming a foreign origin while riding on
 * the session cookie is refused. Requests without `Origin` (curl, scripts) are not browser-driven writes.
 */
function isForeignOrigin(request: FastifyRequest, config: Config): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return request.headers['sec-fetch-site'] === 'cross-site';
  if (origin === config.publicOrigin) return false;
  const host = request.headers.host;
  // Same-origin by the request's own Host header too, so a console opened as localhost:3000 works when
  // PUBLIC_URL says 127.0.0.1:3000; a foreign page cannot choose the Host its victim's browser sends.
  return !(host !== undefined && (origin === `http://${host}` || origin === `https://${host}`));
}

/**
 * Sets `request.actor` from the request's credentials and checks the route's requirement (`declared`, the route's
 * `config.auth`). Returns the onRequest handler; the app runs it from its single onRequest hook.
 */
export function installAuth(
  app: FastifyInstance,
  services: Pick<RouteServices, 'authenticate'>,
  config: Config,
): (request: FastifyRequest, reply: FastifyReply, declared: Access | undefined, done: (error?: Error) => void) => void {
  app.decorateRequest<Actor | null>('actor', null);
  requireDeclaredAccess(app);

  return (request, reply, declared, done) => {
    request.actor = ANONYMOUS;
    const requirement = accessOf(request, declared);
    // Never reached by a started app; should it be, nothing is opened by omission.
    if (requirement === null) {
      done(new Error(`${request.method} ${request.routeUrl} declares no access in config.auth.`));
      return;
    }
    if (requirement === 'none') {
      done();
      return;
    }
    const settle = (actor: Actor) => {
      try {
        requireActor(actor, requirement);
      } catch (error) {
        done(error as Error);
        return;
      }
      done();
    };
    // Most traffic is anonymous reads: settled without a promise.
    const authorization = request.headers.authorization;
    if (authorization === undefined && request.headers.cookie === undefined && !UNSAFE_METHODS.has(request.method)) {
      settle(ANONYMOUS);
      return;
    }
    // A key seen moments ago (a busy script): settled without a promise too.
    const key = authorization === undefined ? null : bearerToken(authorization);
    const known = key === null ? null : services.authenticate.recallApiKey(key);
    if (known !== null) {
      request.actor = known;
      settle(known);
      return;
    }
    authenticate(request, reply, requirement).then(() => done(), done);
  };

  async function authenticate(request: FastifyRequest, reply: FastifyReply, requirement: Requirement): Promise<void> {
    const authorization = request.headers.authorization;
    const cookie = sessionCookie(request);
    const isAuthRoute = request.url.startsWith('/v1/auth/');

    if (
      authorization === undefined &&
      UNSAFE_METHODS.has(request.method) &&
      (cookie !== undefined || isAuthRoute) &&
      isForeignOrigin(request, config)
    ) {
      throw new AppError(
        403,
        'csrf_rejected',
        'This request comes from another site and was refused; use the registry from its own address.',
      );
    }

    if (authorization !== undefined) {
      const key = bearerToken(authorization);
      if (key === null) throw unauthenticated('The Authorization header must be "Bearer <API key>".');
      const result = await services.authenticate.apiKey(key);
      // A bad key is always an error, even on public routes: a script should learn at once that its key is wrong.
      if (!result.ok) throw unauthenticated(result.reason);
      request.actor = result.actor;
    } else if (cookie !== undefined && cookie !== '') {
      const result = await services.authenticate.session(cookie);
      if (result.ok) {
        request.actor = result.actor;
      } else {
        // A stale cookie must not stop a browser from reading public pages; it is cleared and the request
        // continues anonymously, and routes that need a caller answer 401 below.
        clearSessionCookie(reply);
        if (requirement !== 'public') throw unauthenticated(result.reason);
      }
    }
    requireActor(request.actor, requirement);
  }
}
