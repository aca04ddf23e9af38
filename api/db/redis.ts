import { Redis } from 'ioredis';
import type { Logger } from '../logger';

/**
 * The Redis connection of a node of a cluster (REDIS_URL, docs/scaling.md): the store of what every api
 * node must count together (rate limits, spent proof-of-work solutions, the broker's live sessions).
 * Commands fail fast while Redis is away (no offline queue): a limit that cannot be checked answers the
 * request with a 503 through the error middleware rather than letting it through uncounted or holding it.
 */
export function createRedis(url: string, logger?: Logger): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 4000,
    // Reconnects forever, at most every 2 s: the node keeps serving what needs no shared counter.
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  let lastWarning = 0;
  redis.on('error', (err: Error) => {
    if (Date.now() - lastWarning < 10_000) return;
    lastWarning = Date.now();
    logger?.warn({ err: err.message }, 'redis error');
  });
  return redis;
}

/** Waits for the connection to be ready (or rejects after `timeoutMs`), for start-up and tests. */
export async function redisReady(redis: Redis, timeoutMs = 10_000): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      reject(new Error(`Redis não respondeu em ${timeoutMs} ms`));
    }, timeoutMs);
    const onReady = () => {
      clearTimeout(timer);
      resolve();
    };
    redis.once('ready', onReady);
  });
}
