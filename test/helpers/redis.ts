import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { createRedis, redisReady } from '../../api/db/redis';

/** The machine's Redis (TEST_REDIS_URL overrides): shared counters are tested on the real server. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A connection to it, ready; each test keeps its keys under its own prefix (uniquePrefix). */
export async function testRedis(): Promise<Redis> {
  const redis = createRedis(TEST_REDIS_URL);
  await redisReady(redis);
  return redis;
}

export function uniquePrefix(name: string): string {
  return `balcao-test:${name}:${randomBytes(4).toString('hex')}:`;
}
