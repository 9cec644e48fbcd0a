import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';

/** What one node tells the others to forget from its in-process caches. */
export type Invalidation = { kind: 'skills'; id?: string } | { kind: 'user'; id: string } | { kind: 'credential'; id: string };

/**
 * Tells the other nodes serving the same database that something cached changed. Delivery is best effort:
 * a node that misses a message (Redis down, reconnecting) still drops the entry when its short TTL runs out,
 * so the bus only shortens the time another node may answer from an outdated entry.
 */
export interface InvalidationBus {
  publish(message: Invalidation): void;
  /** Messages from other nodes; a node never receives its own. */
  subscribe(listener: (message: Invalidation) => void): void;
  close(): Promise<void>;
}

/** One node alone: nobody to tell. */
export function localInvalidationBus(): InvalidationBus {
  return {
    publish() {},
    subscribe() {},
    async close() {},
  };
}

/** Every node of one registry publishes and listens on this channel. */
const CHANNEL = 'skreg:invalidate';

interface Envelope {
  /** The publishing node, so it can ignore its own messages (it has already applied them). */
  from: string;
  message: Invalidation;
}

function parseEnvelope(text: string): Envelope | null {
  try {
    // A message from the channel may be anything: every field is checked before use.
    const value = JSON.parse(text) as { from?: unknown; message?: { kind?: unknown; id?: unknown } | null };
    const message = value.message;
    if (typeof value.from !== 'string' || typeof message !== 'object' || message === null) return null;
    if (message.kind === 'skills') {
      // The skill that changed, so the other nodes read it again for search; without one, only caches are dropped.
      return { from: value.from, message: typeof message.id === 'string' ? { kind: 'skills', id: message.id } : { kind: 'skills' } };
    }
    if ((message.kind === 'user' || message.kind === 'credential') && typeof message.id === 'string') {
      return { from: value.from, message: { kind: message.kind, id: message.id } };
    }
    return null;
  } catch {
    return null;
  }
}

/**
 * Redis pub/sub between the nodes. A subscribed connection cannot publish, so there are two. Publishing never
 * waits and never queues while Redis is unreachable: a message that cannot be sent now is worthless later,
 * since the TTL has expired the entry by then.
 */
export async function redisInvalidationBus(url: string, options: { onError?: (error: unknown) => void } = {}): Promise<InvalidationBus> {
  const onError = options.onError ?? (() => undefined);
  const nodeId = randomUUID();
  const connection = { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 };
  const publisher = new Redis(url, connection);
  // The subscriber keeps an offline queue: ioredis re-subscribes through it after a reconnect.
  const subscriber = new Redis(url, { ...connection, enableOfflineQueue: true, maxRetriesPerRequest: null });
  // Connection errors are retried by ioredis itself; without listeners they would crash the process.
  let lastReport = 0;
  const report = (error: unknown) => {
    if (Date.now() - lastReport < 60_000) return;
    lastReport = Date.now();
    onError(error);
  };
  publisher.on('error', report);
  subscriber.on('error', report);

  const listeners: ((message: Invalidation) => void)[] = [];
  subscriber.on('message', (from: string, text: string) => {
    if (from !== CHANNEL) return;
    const envelope = parseEnvelope(text);
    if (envelope === null || envelope.from === nodeId) return;
    for (const listener of listeners) listener(envelope.message);
  });

  // A node that cannot reach Redis at start still serves: the TTLs bound what it may miss meanwhile.
  await Promise.all([publisher.connect(), subscriber.connect()]).catch(report);
  const subscribed = subscriber.subscribe(CHANNEL).catch(report);
  // Connected: listen before serving. Not connected: the subscription goes out when the connection does.
  if (subscriber.status === 'ready') await subscribed;

  return {
    publish(message) {
      if (publisher.status !== 'ready') return;
      publisher.publish(CHANNEL, JSON.stringify({ from: nodeId, message } satisfies Envelope)).catch(report);
    },
    subscribe(listener) {
      listeners.push(listener);
    },
    close(): Promise<void> {
      publisher.disconnect();
      subscriber.disconnect();
      return Promise.resolve();
    },
  };
}
