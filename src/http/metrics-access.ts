import { createHash, timingSafeEqual } from 'node:crypto';
import { BlockList } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { AppError } from '../domain/errors.js';
import { HttpProblem } from './problem.js';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Who may read `/metrics`. With neither a token nor an address list it is open (a registry on a private network,
 * scraped by its neighbour). Otherwise a caller is admitted from an allowed address, or with the bearer token.
 * Returns the refusal for a caller who is not admitted, or null.
 */
export function metricsAccess(access: Config['metricsAccess']): (request: FastifyRequest) => AppError | null {
  const { token, allow } = access;
  if (token === null && allow.length === 0) return () => null;
  const allowed = new BlockList();
  for (const range of allow) allowed.addSubnet(range.address, range.prefix, range.family);
  // Compared as digests, in constant time: the token's length and prefix are not revealed by timing.
  const expected = token === null ? null : digest(token);

  return (request) => {
    if (allow.length > 0 && allowed.check(request.ip, request.ip.includes(':') ? 'ipv6' : 'ipv4')) return null;
    if (expected === null) {
      return new AppError(
        403,
        'forbidden',
        `Metrics are not served to ${request.ip}; the registry's METRICS_ALLOW list does not include it.`,
      );
    }
    const presented = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
    if (presented !== undefined && timingSafeEqual(digest(presented), expected)) return null;
    return new HttpProblem(
      401,
      'unauthenticated',
      presented === undefined ? 'Metrics need "Authorization: Bearer <metrics token>".' : 'The metrics token is not valid.',
      { 'www-authenticate': 'Bearer realm="metrics"' },
    );
  };
}
