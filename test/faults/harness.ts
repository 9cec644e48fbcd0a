import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { loadConfig, type Config, type DatabaseConfig } from '../../src/config.js';
import { createRuntime, type Runtime } from '../../src/server.js';
import { ADMIN } from '../helpers/app.js';

/** A registry in this process, listening on a real port of 127.0.0.1, over a database and files the test chose. */
export interface ServedRegistry {
  base: string;
  port: number;
  config: Config;
  runtime: Runtime;
  close(): Promise<void>;
  /** close(), failing (rather than hanging the test file) when it has not finished within `ms`. */
  closeWithin(ms: number): Promise<void>;
}

/** Builds the registry as `serve` does (createRuntime) from `env`, on `database`, and listens on a free port. */
export async function serveRegistry(database: DatabaseConfig, env: Record<string, string>): Promise<ServedRegistry> {
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    RATE_LIMIT: 'off',
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    ADMIN_EMAIL: ADMIN.email,
    HOST: '127.0.0.1',
    PORT: '0',
    ...env,
  });
  config.database = database;
  const runtime = await createRuntime(config);
  await runtime.app.listen({ host: '127.0.0.1', port: 0 });
  const port = (runtime.app.server.address() as AddressInfo).port;
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    config,
    runtime,
    close: () => runtime.close(),
    async closeWithin(ms) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the registry did not close within ${ms} ms`)), ms);
      });
      try {
        await Promise.race([runtime.close(), late]);
      } finally {
        clearTimeout(timer);
        // Whatever is still open (a stuck connection) must not keep the test file running.
        runtime.app.server.closeAllConnections();
      }
    },
  };
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** Which connection answered: the same number means the same socket. */
  socket: number;
  /** Set when the request's own stream failed after (or instead of) the answer, e.g. a reset while still sending. */
  requestError?: Error;
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- callers name the shape they expect; JSON.parse checks nothing, so this is the one place that cast is written
  json<T = Record<string, unknown>>(): T;
}

const socketIds = new WeakMap<Socket, number>();
let nextSocketId = 1;

/**
 * A keep-alive client with exactly one connection, as a browser or an SDK holds one: a request is written on the
 * socket the previous answer came on, so a connection the server leaves stuck makes the next request hang.
 */
export function keepAliveClient(base: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(base);
  return {
    agent,
    request(
      method: string,
      path: string,
      options: { headers?: Record<string, string | number>; body?: Buffer | string; timeoutMs?: number } = {},
    ): Promise<RawResponse> {
      const timeoutMs = options.timeoutMs ?? 10_000;
      return new Promise((resolve, reject) => {
        const req = http.request({ host: url.hostname, port: url.port, method, path, agent, headers: options.headers ?? {} });
        let socketId = 0;
        let requestError: Error | undefined;
        const timer = setTimeout(() => {
          req.destroy();
          reject(new Error(`${method} ${path}: no answer within ${timeoutMs} ms (the connection is stuck)`));
        }, timeoutMs);
        req.on('socket', (socket) => {
          let id = socketIds.get(socket);
          if (id === undefined) {
            id = nextSocketId++;
            socketIds.set(socket, id);
          }
          socketId = id;
        });
        req.on('error', (error) => {
          requestError = error;
          clearTimeout(timer);
          reject(error);
        });
        req.on('response', (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            clearTimeout(timer);
            const body = Buffer.concat(chunks);
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body,
              socket: socketId,
              requestError,
              // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- as RawResponse.json: the caller names the shape
              json: <T>() => JSON.parse(body.toString()) as T,
            });
          });
        });
        req.end(options.body);
      });
    },
    close() {
      agent.destroy();
    },
  };
}
