import { Type } from 'typebox';
import { SESSION_DAYS } from '../../domain/accounts/accounts.js';
import { clearSessionCookie, SESSION_COOKIE, setSessionCookie } from '../cookies.js';
import { caller } from '../plugins/auth.js';
import { CurrentSession, LoginBody, LoginResult, RegisterBody, UserRef } from '@skill-registry/api-schemas/accounts';
import { problems } from '@skill-registry/api-schemas/common';
import type { RoutePlugin } from '../types.js';
import { describeCaller } from './me.js';
import { security } from './security.js';

export const authRoutes: RoutePlugin = async (app, { services, config }) => {
  app.post(
    '/v1/auth/register',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Create an account',
        description: 'Open to anyone unless the registry runs with REGISTRATION=closed (then 403 `registration_closed`).',
        body: RegisterBody,
        response: { 201: UserRef, ...problems(400, 403, 409, 415) },
      },
    },
    async (request, reply) => {
      const user = await services.accounts.register(request.body);
      return reply.code(201).send(user);
    },
  );

  app.post(
    '/v1/auth/login',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Sign in',
        description: `Sets the \`${SESSION_COOKIE}\` cookie (HttpOnly, SameSite=Lax, ${SESSION_DAYS} days).`,
        body: LoginBody,
        response: { 200: LoginResult, ...problems(400, 401, 403, 415) },
      },
    },
    async (request, reply) => {
      const { user, token, expiresAt } = await services.accounts.login(request.body.login, request.body.password);
      setSessionCookie(reply, config, token);
      return { user, expires_at: expiresAt };
    },
  );

  app.get(
    '/v1/auth/session',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Who is signed in',
        description:
          'The caller as GET /v1/me describes it, or `user` and `auth` null without credentials (or with a session cookie that ' +
          'has ended, which is then cleared): 200 either way, so a browser can ask on every page without logging a failed request. ' +
          'A bad API key is still a 401.',
        // Credentials are optional: `{}` first says the call also works without any.
        security: [{}, ...(security('user') ?? [])],
        response: { 200: CurrentSession, ...problems(401) },
      },
    },
    async (request) => (request.actor.kind === 'anonymous' ? { user: null, auth: null } : describeCaller(services, request.actor)),
  );

  app.post(
    '/v1/auth/logout',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['auth'],
        summary: 'Sign out',
        description: 'Revokes the current session and clears its cookie.',
        response: { 204: Type.Null(), ...problems(401, 403) },
      },
    },
    async (request, reply) => {
      const actor = caller(request);
      if (actor.kind === 'session') await services.accounts.logout(actor.sessionId);
      clearSessionCookie(reply);
      return reply.code(204).send(null);
    },
  );
};
