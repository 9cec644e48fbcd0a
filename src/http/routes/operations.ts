import type { Registry } from 'prom-client';
import { Type } from 'typebox';
import { AppError } from '../../domain/errors.js';
import { problems } from '../schemas/common.js';
import type { RoutePlugin } from '../types.js';

const none = { auth: 'none' as const };

export const operationRoutes: RoutePlugin<{ metrics: Registry }> = async (app, { services, metrics }) => {
  app.get(
    '/healthz',
    {
      config: none,
      schema: {
        tags: ['operations'],
        summary: 'Liveness',
        description: 'Answers 200 whenever the process accepts requests.',
        response: { 200: Type.Object({ status: Type.Literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      config: none,
      schema: {
        tags: ['operations'],
        summary: 'Readiness',
        description: 'Checks the database and the package store; 503 when a dependency does not answer.',
        response: { 200: Type.Object({ status: Type.Literal('ok'), checks: Type.Record(Type.String(), Type.String()) }), ...problems(503) },
      },
    },
    async (request) => {
      try {
        await services.database.ping();
      } catch (error) {
        request.log.warn({ err: error }, 'readiness check failed: database');
        throw new AppError(503, 'not_ready', 'The database does not answer.');
      }
      try {
        await services.blobs.ping();
      } catch (error) {
        request.log.warn({ err: error }, 'readiness check failed: blob store');
        throw new AppError(503, 'not_ready', 'The package store is not writable.');
      }
      return { status: 'ok' as const, checks: { database: 'ok', blobs: 'ok' } };
    },
  );

  app.get(
    '/metrics',
    {
      config: none,
      schema: { tags: ['operations'], summary: 'Prometheus metrics', description: 'Prometheus text exposition format.' },
    },
    async (_request, reply) => reply.type(metrics.contentType).send(await metrics.metrics()),
  );

  app.get(
    '/v1/openapi.json',
    {
      config: none,
      schema: { tags: ['operations'], summary: 'This API as an OpenAPI 3.1 document' },
    },
    async () => app.swagger(),
  );
};
