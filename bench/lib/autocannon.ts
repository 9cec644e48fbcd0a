import autocannon from 'autocannon';
import type { LoadResult } from './client.js';

export interface CannonOptions {
  /** Base URL and path of the first (or only) request. */
  url: string;
  connections: number;
  seconds: number;
  headers?: Record<string, string>;
  /** Several paths in rotation (each connection walks the list in order); `url` then only gives the origin. */
  paths?: string[];
  /** A path chosen afresh for every request (e.g. at random from many); `url` then only gives the origin. */
  pick?: () => string;
}

/**
 * Drives a URL with autocannon in this process (the load generator). Only 2xx responses count as requests;
 * everything else (non-2xx, socket errors, timeouts) counts as an error. autocannon's latency histogram
 * keeps whole milliseconds.
 */
export async function cannon(options: CannonOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    headers: options.headers ?? {},
    ...(options.paths ? { requests: options.paths.map((path) => ({ method: 'GET' as const, path })) } : {}),
    ...(options.pick
      ? { requests: [{ method: 'GET' as const, setupRequest: (request: autocannon.Request) => ({ ...request, path: options.pick!() }) }] }
      : {}),
  });
  const ok = result['2xx'];
  return {
    requests: ok,
    errors: result.errors + result.non2xx,
    seconds: result.duration,
    rps: ok / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bytes: result.throughput.total,
  };
}
