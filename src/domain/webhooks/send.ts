import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CheckedTarget } from './address-guard.js';

/** What one attempt came to: the receiver's status, or the error that kept it from answering. */
export interface AttemptOutcome {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** The first RESPONSE_KEPT characters of the answer's body. */
  responseBody: string | null;
}

/** How much of a receiver's answer the delivery log keeps. */
export const RESPONSE_KEPT = 1024;

/**
 * Posts `body` to a checked target. Node's own http client, for two things it gives without a library: `lookup`, so
 * the socket connects to the address the guard checked rather than to whatever the name resolves to now (TLS still
 * checks the certificate against the host name), and no redirects followed (a 3xx is just a failed attempt). A
 * connection that is not made within `timeoutMs`, or an answer not complete `timeoutMs` after that, ends the attempt.
 */
export function send(
  target: CheckedTarget,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  now = () => Date.now(),
): Promise<AttemptOutcome> {
  const started = now();
  const lookup: LookupFunction = (_host, options, callback) => {
    if (options.all)
      (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<AttemptOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...outcome, durationMs: Math.max(0, now() - started) });
    };
    const request = client.request(target.url, {
      method: 'POST',
      lookup,
      headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
      agent: false,
    });
    let timer = setTimeout(() => {
      request.destroy(new Error(`no connection within ${timeoutMs} ms`));
    }, timeoutMs);
    request.on('socket', (socket) => {
      socket.once(target.url.protocol === 'https:' ? 'secureConnect' : 'connect', () => {
        clearTimeout(timer);
        timer = setTimeout(() => request.destroy(new Error(`no complete answer within ${timeoutMs} ms`)), timeoutMs);
      });
    });
    request.on('error', (error: NodeJS.ErrnoException) => finish({ statusCode: null, error: attemptError(error), responseBody: null }));
    request.on('response', (response) => {
      // A redirect fails the attempt and is never followed (the address guard checked the webhook's own URL only); the log says
      // where it pointed, so the owner can give the webhook its final URL.
      const status = response.statusCode ?? 0;
      const redirect =
        status >= 300 && status < 400
          ? `The receiver answered ${status}, a redirect to ${response.headers.location ?? 'nowhere'}; redirects are not followed: give the webhook its final URL.`
          : null;
      let kept = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        if (kept.length < RESPONSE_KEPT) kept += chunk.slice(0, RESPONSE_KEPT - kept.length);
      });
      response.on('end', () => finish({ statusCode: response.statusCode ?? null, error: redirect, responseBody: kept }));
      response.on('error', (error) => finish({ statusCode: response.statusCode ?? null, error: error.message, responseBody: kept }));
    });
    request.end(body);
  });
}

/** A failed connection as the delivery log shows it: a receiver that hung up is named so, not by Node's "socket hang up". */
function attemptError(error: NodeJS.ErrnoException): string {
  if (error.code === 'ECONNRESET') return `The receiver closed the connection without answering (${error.message}).`;
  return error.message;
}
