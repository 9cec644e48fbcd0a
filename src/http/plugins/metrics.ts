import type { FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  registry: Registry;
  /** Counts one finished response; called from the app's single onResponse hook. */
  observe(request: FastifyRequest, reply: FastifyReply): void;
}

/** Prometheus metrics: one registry per application instance, so several instances in one process stay apart. */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['method', 'route', 'status_code'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status.',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to finishing its response.',
    labelNames,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  // One labelled child per route, method and status, looked up once: labelling on every request costs more
  // than counting. The route pattern, never the raw URL, keeps the number of children bounded.
  interface Child {
    count: { inc(): void };
    time: { observe(value: number): void };
  }
  const children = new Map<string, Map<number, Child>>();
  function count(method: string, route: string, statusCode: number, elapsedMs: number): void {
    const key = method === 'GET' ? route : `${method} ${route}`;
    let byStatus = children.get(key);
    if (byStatus === undefined) children.set(key, (byStatus = new Map<number, Child>()));
    let child = byStatus.get(statusCode);
    if (child === undefined) {
      const labels = { method, route, status_code: String(statusCode) };
      child = { count: requests.labels(labels), time: duration.labels(labels) };
      byStatus.set(statusCode, child);
    }
    child.count.inc();
    child.time.observe(elapsedMs / 1000);
  }
  return {
    registry,
    observe: (request, reply) => count(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime),
  };
}
