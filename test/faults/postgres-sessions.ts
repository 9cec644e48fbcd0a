import net from 'node:net';
import pg from 'pg';

/**
 * TEST_DATABASE_URL, or '' when it is not set. The tests that need it are then skipped with POSTGRES_ONLY's reason,
 * which the run's summary counts and names; with CI=true the run refuses to start without it (scripts/test.mjs), so
 * PostgreSQL is never left out there.
 */
export const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? '';

/** The option of a suite that needs PostgreSQL: skipped, saying why, on a machine with only the embedded default. */
export const POSTGRES_ONLY = { skip: POSTGRES_URL === '' ? 'needs TEST_DATABASE_URL (a PostgreSQL database)' : false } as const;

/**
 * Terminates the sessions named `applicationName` (only those: the server is shared), all of them or only the
 * idle ones; returns how many went.
 */
export async function terminateSessions(adminUrl: string, applicationName: string, which: 'idle' | 'all' = 'all'): Promise<number> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const result = await client.query<{ pid: number }>(
      `select pid from pg_stat_activity
        where application_name = $1 and pid <> pg_backend_pid() and ($2 = 'all' or state = 'idle')`,
      [applicationName, which],
    );
    for (const { pid } of result.rows) await client.query('select pg_terminate_backend($1)', [pid]);
    return result.rows.length;
  } finally {
    await client.end();
  }
}

/** How many sessions named `applicationName` the server has. */
export async function countSessions(adminUrl: string, applicationName: string): Promise<number> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const result = await client.query<{ n: string }>('select count(*) as n from pg_stat_activity where application_name = $1', [
      applicationName,
    ]);
    return Number(result.rows[0]!.n);
  } finally {
    await client.end();
  }
}

/**
 * A TCP proxy on 127.0.0.1 in front of the database, to make it vanish and come back without touching the shared
 * server: `refuse` closes the listener and cuts every connection (a server that is down), `blackhole` keeps
 * accepting but forwards nothing either way (a network that swallows packets), `restore` forwards again (and cuts
 * the connections accepted meanwhile, which never reached the server, as a recovering network would reset them).
 */
export interface DatabaseProxy {
  port: number;
  /** `target` with its host and port replaced by the proxy's. */
  url(target: string): string;
  refuse(): Promise<void>;
  blackhole(): void;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function databaseProxy(target: string): Promise<DatabaseProxy> {
  const upstream = new URL(target);
  const upstreamHost = upstream.hostname;
  const upstreamPort = Number(upstream.port || 5432);
  const sockets = new Set<net.Socket>();
  /** Connections accepted while blackholed: they never reached the server, and are cut when forwarding resumes. */
  const stranded = new Set<net.Socket>();
  let mode: 'forward' | 'blackhole' = 'forward';
  let port = 0;

  const onConnection = (downstream: net.Socket) => {
    sockets.add(downstream);
    downstream.on('close', () => sockets.delete(downstream));
    downstream.on('error', () => undefined);
    if (mode === 'blackhole') {
      stranded.add(downstream);
      downstream.on('close', () => stranded.delete(downstream));
      return;
    }
    const up = net.connect(upstreamPort, upstreamHost);
    sockets.add(up);
    up.on('close', () => {
      sockets.delete(up);
      downstream.destroy();
    });
    up.on('error', () => undefined);
    downstream.on('close', () => up.destroy());
    // Data is passed on only while forwarding; a blackholed connection keeps its sockets but delivers nothing.
    up.on('data', (chunk: Buffer) => {
      if (mode === 'forward') downstream.write(chunk);
    });
    downstream.on('data', (chunk: Buffer) => {
      if (mode === 'forward') up.write(chunk);
    });
  };

  let server = net.createServer(onConnection);
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        port = (server.address() as net.AddressInfo).port;
        resolve();
      });
    });
  await listen();

  const cutAll = () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };

  return {
    get port() {
      return port;
    },
    url(raw) {
      const url = new URL(raw);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    async refuse() {
      mode = 'forward';
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        cutAll();
      });
    },
    blackhole() {
      mode = 'blackhole';
    },
    async restore() {
      mode = 'forward';
      for (const socket of stranded) socket.destroy();
      stranded.clear();
      if (!server.listening) {
        server = net.createServer(onConnection);
        await listen();
      }
    },
    async close() {
      cutAll();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
