import type { FastifyReply, FastifyRequest } from 'fastify';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { RequestMetrics } from '../request-metrics.js';

export interface Metrics {
  /** The content type of `exposition`. */
  contentType: string;
  /** Every metric in the Prometheus text format: the process's (prom-client) and the requests'. */
  exposition(): Promise<string>;
  /** Counts one finished response; called from the app's single onResponse hook. */
  observe(request: FastifyRequest, reply: FastifyReply): void;
}

/** Prometheus metrics: one set per application instance, so several instances in one process stay apart. */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new RequestMetrics();
  return {
    contentType: registry.contentType,
    exposition: async () => `${await registry.metrics()}\n${requests.exposition()}`,
    observe: (request, reply) => requests.observe(request.method, request.routeUrl ?? 'unmatched', reply.statusCode, reply.elapsedTime),
  };
}
