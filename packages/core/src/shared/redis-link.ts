import type { Redis } from 'ioredis';
import type { RedisConfig } from '../config.ts';
import type { Logger } from '../logger.ts';

/** Whether the shared Redis answers: `ok`, or `down` while the replica runs on in-process stand-ins. */
export type RedisState = 'ok' | 'down';

/**
 * One replica's connection to the shared Redis, and what it knows of its health. Every command has
 * a deadline (`timeoutMs`) and nothing queues while the connection is down, so a Redis fault costs
 * a search at most one timeout, never an outage: callers fall back to in-process state. ioredis
 * reconnects by itself (backoff up to 1 s), so the link recovers without a restart.
 */
export interface RedisLink {
  /** The ioredis client (rate-limiter-flexible's `RateLimiterRedis` takes it as its store). */
  readonly client: Redis;
  /** Prepended to every key (`OPENMATES_REDIS_PREFIX`). */
  readonly prefix: string;
  /** The state now; `down` until the first connection is ready. */
  readonly state: RedisState;
  /** Calls `listener` on every change of state (for `/healthz`, metrics). Returns an unsubscribe. */
  onStateChange(listener: (state: RedisState) => void): () => void;
  /**
   * HMAC-SHA-256 of `parts` under `OPENMATES_REDIS_SECRET`, base64url: what stands in Redis for an
   * identity or a query (never the text itself).
   */
  hmac(...parts: readonly string[]): string;
  /** Runs `command`; on a failure or timeout marks the link down and resolves to `fallback`. */
  attempt<T>(command: (client: Redis) => Promise<T>, fallback: T): Promise<T>;
  /** Resolves once the first connection attempt has settled (ready or failed), at most `ms` later. */
  settled(ms?: number): Promise<RedisState>;
  close(): Promise<void>;
}

/**
 * Connects to the shared Redis. Loads ioredis and node:crypto only here, so in-process use (a CLI
 * search's cold start) never pays for them.
 */
export async function connectRedis(config: RedisConfig, logger: Logger): Promise<RedisLink> {
  const [{ Redis }, { createHmac }] = await Promise.all([import('ioredis'), import('node:crypto')]);
  const log = logger.child({ component: 'redis' });
  const client = new Redis(config.url, {
    commandTimeout: config.timeoutMs,
    connectTimeout: Math.max(config.timeoutMs * 5, 1_000),
    // Fail at once while disconnected instead of queueing: the caller's fallback answers now.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (times) => Math.min(50 * 2 ** times, 1_000),
    lazyConnect: true,
  });
  let state: RedisState = 'down';
  let everReady = false;
  const listeners = new Set<(state: RedisState) => void>();
  const waiters = new Set<() => void>();
  const settle = () => {
    for (const w of waiters) w();
    waiters.clear();
  };

  function transition(next: RedisState, reason: string): void {
    if (next === state) return;
    state = next;
    // One line per transition, never the URL (it may carry a password).
    if (next === 'ok') log.info({ event: 'redis', redis: 'ok' }, 'shared state in Redis');
    else log.warn({ event: 'redis', redis: 'down', reason }, 'Redis unreachable: in-process stand-ins');
    for (const listener of listeners) listener(next);
  }

  client.on('ready', () => {
    everReady = true;
    transition('ok', 'ready');
    settle();
  });
  client.on('error', (error: Error & { code?: string }) => {
    transition('down', error.code ?? error.name);
    settle();
  });
  client.on('close', () => transition('down', 'connection closed'));
  client.connect().catch(() => {
    settle();
  });
  if (!everReady) log.debug({ event: 'redis' }, 'connecting');

  const hmacKey = config.secret;
  return {
    client,
    prefix: config.prefix,
    get state() {
      return state;
    },
    onStateChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    hmac: (...parts) => {
      const mac = createHmac('sha256', hmacKey);
      for (const part of parts) mac.update(`${part.length}:${part}`);
      return mac.digest('base64url');
    },
    async attempt(command, fallback) {
      if (client.status !== 'ready') return fallback;
      try {
        return await command(client);
      } catch (error) {
        // A timed-out command leaves the socket in doubt: report it down until ioredis says ready.
        const name = (error as Error).name;
        transition('down', name === 'Error' ? (error as Error).message.slice(0, 60) : name);
        if (client.status === 'ready')
          setTimeout(() => client.status === 'ready' && transition('ok', 'ready'), 1_000).unref();
        return fallback;
      }
    },
    settled(ms = 2_000) {
      if (everReady || client.status === 'ready') return Promise.resolve(state);
      return new Promise((resolve) => {
        const timer = setTimeout(done, ms);
        timer.unref();
        function done() {
          clearTimeout(timer);
          waiters.delete(done);
          resolve(state);
        }
        waiters.add(done);
      });
    },
    async close() {
      listeners.clear();
      client.disconnect();
    },
  };
}
