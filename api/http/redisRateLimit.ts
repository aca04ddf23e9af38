import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { errors } from './errors';
import type { RateLimiter, RateRule } from './rateLimit';

/**
 * One sliding-window step over every rule at once, atomic in Redis (a script runs alone): each key is a
 * sorted set of hit times (scored in ms, Redis' own clock, so the nodes' clocks do not matter). Answers
 * 0 and counts `member` on every key when all have room ('take'); otherwise, or for 'wait', counts
 * nothing and answers the seconds until every full one has room again — the memory limiter's rule.
 * KEYS: the rules' keys. ARGV: mode, member, then limit and window (ms) of each rule in KEYS' order.
 */
const STEP = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local mode = ARGV[1]
local longest = 0
for i, key in ipairs(KEYS) do
  local limit = tonumber(ARGV[1 + i * 2])
  local window = tonumber(ARGV[2 + i * 2])
  local wait = 0
  if limit <= 0 then
    wait = math.max(1, math.ceil(window / 1000))
  else
    redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
    local n = redis.call('ZCARD', key)
    if n >= limit then
      local freeing = tonumber(redis.call('ZRANGE', key, n - limit, n - limit, 'WITHSCORES')[2])
      wait = math.max(1, math.ceil((freeing + window - now) / 1000))
    end
  end
  if wait > longest then longest = wait end
end
if longest > 0 or mode == 'wait' then return longest end
for i, key in ipairs(KEYS) do
  local window = tonumber(ARGV[2 + i * 2])
  redis.call('ZADD', key, now, ARGV[2])
  if redis.call('PTTL', key) < window then redis.call('PEXPIRE', key, window) end
end
return 0
`;

interface StepCommands {
  rateStep(numKeys: number, ...args: (string | number)[]): Promise<number>;
}

const unavailable = () => errors.unavailable('O serviço está temporariamente indisponível. Tente novamente em instantes.');

/**
 * Rate limits shared by every api node (REDIS_URL, docs/scaling.md), with the memory limiter's contract.
 * Keys live under `prefix` and expire with their longest window. Redis away: the call fails with a 503
 * (a limit that cannot be counted lets nothing through uncounted).
 */
export function createRedisRateLimiter(redis: Redis, prefix = 'balcao:rl:'): RateLimiter {
  redis.defineCommand('rateStep', { lua: STEP });
  const commands = redis as unknown as StepCommands;

  const step = async (mode: 'take' | 'wait', rules: readonly RateRule[], member: string): Promise<number> => {
    if (!rules.length) return 0;
    const args = [mode, member, ...rules.flatMap((r) => [r.limit, r.windowMs])];
    try {
      return Number(await commands.rateStep(rules.length, ...rules.map((r) => prefix + r.key), ...args));
    } catch {
      throw unavailable();
    }
  };
  const newMember = () => `${Date.now()}:${randomBytes(6).toString('base64url')}`;

  return {
    async hit(key, limit, windowMs) {
      const member = newMember();
      const retryAfter = await step('take', [{ key, limit, windowMs }], member);
      if (retryAfter > 0) throw errors.rateLimit(retryAfter);
      return async () => {
        await redis.zrem(prefix + key, member).catch(() => undefined);
      };
    },
    take: (rules) => step('take', rules, newMember()),
    wait: (rules) => step('wait', rules, ''),
    async reset(key) {
      if (key !== undefined) {
        await redis.del(prefix + key);
        return;
      }
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
        cursor = next;
        if (keys.length) await redis.del(...keys);
      } while (cursor !== '0');
    },
    async close() {
      await redis.quit().catch(() => undefined);
    },
  };
}
