import { parse, serialize } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { SESSION_DAYS } from '../domain/accounts/accounts.js';

export const SESSION_COOKIE = 'session_token';

// Only the session cookie is read or written, and only by sign-in, sign-out and authentication: parsing
// here, where it is needed, keeps cookie handling off the path of every other request (no global hooks).

/** The session token the request carries, if any. */
export function sessionCookie(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  return header === undefined ? undefined : parse(header)[SESSION_COOKIE];
}

export function setSessionCookie(reply: FastifyReply, config: Config, token: string): void {
  reply.header(
    'set-cookie',
    serialize(SESSION_COOKIE, token, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: config.cookieSecure,
      maxAge: SESSION_DAYS * 86_400,
    }),
  );
}

/** Tells the browser to drop its session cookie. */
export function clearSessionCookie(reply: FastifyReply): void {
  reply.header('set-cookie', serialize(SESSION_COOKIE, '', { path: '/', sameSite: 'lax', expires: new Date(0), maxAge: 0 }));
}
