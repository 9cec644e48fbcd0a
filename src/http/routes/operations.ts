import { Type } from 'typebox';
import { AppError } from '../../domain/errors.js';
import { freeSpaceGuard, watchedDisks } from '../../storage/free-space.js';
import { lowDiskDetail } from '../low-disk.js';
import { metricsAccess } from '../metrics-access.js';
import { problems } from '@skill-registry/api-schemas/common';
import type { Metrics } from '../plugins/metrics.js';
import type { RoutePlugin } from '../types.js';

const none = { auth: 'none' as const };

export const operationRoutes: RoutePlugin<{ metrics: Pick<Metrics, 'contentType' | 'exposition'> }> = async (
  app,
  { services, config, metrics },
) => {
  const freeSpace = freeSpaceGuard(watchedDisks(config.storage, config.database), config.storageMinFreeBytes);
  const metricsRefusal = metricsAccess(config.metricsAccess);

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
        description:
          'Checks the database and the package store; 503 when a dependency does not answer, or when a local disk the ' +
          'registry writes to has less free space than STORAGE_MIN_FREE_BYTES (the check is named in `errors`).',
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
      const low = await freeSpace.lowDisk();
      if (low !== null) {
        request.log.warn({ disk: low }, 'readiness check failed: low disk space');
        throw new AppError(503, 'not_ready', lowDiskDetail(low), [
          { field: low.name, message: `${low.freeBytes} bytes free, below ${low.minFreeBytes}` },
        ]);
      }
      return { status: 'ok' as const, checks: { database: 'ok', blobs: 'ok' } };
    },
  );

  app.get(
    '/metrics',
    {
      config: none,
      schema: {
        tags: ['operations'],
        summary: 'Prometheus metrics',
        description:
          'Prometheus text exposition format. Open unless METRICS_TOKEN (send it as a bearer token; 401 without it) or ' +
          'METRICS_ALLOW (addresses and CIDR ranges; 403 from elsewhere) is set; with both, either admits.',
        response: problems(401, 403),
      },
    },
    async (request, reply) => {
      const refusal = metricsRefusal(request);
      if (refusal) throw refusal;
      return reply.type(metrics.contentType).send(await metrics.exposition());
    },
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
