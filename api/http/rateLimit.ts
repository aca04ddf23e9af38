import { errors } from './errors';

/** At most `limit` hits on `key` within any `windowMs` (a sliding window). */
export interface RateRule {
  key: string;
  limit: number;
  windowMs: number;
}

/**
 * Sliding-window counters. `createMemoryRateLimiter` keeps them in process memory (one api node, the
 * default); `createRedisRateLimiter` (redisRateLimit.ts, selected by REDIS_URL) keeps them in Redis, so
 * every api node of a cluster counts in the same windows (docs/scaling.md). Each call is one atomic step
 * of the store: a take checks every rule and counts on all of them, or on none, with nothing in between.
 */
export interface RateLimiter {
  /**
   * Counts one hit for key; rejects with RateLimitError (429 with Retry-After) once the window is full.
   * Answers a function that gives this hit back, for limits that count only failed attempts.
   */
  hit(key: string, limit: number, windowMs: number): Promise<() => Promise<void>>;
  /**
   * Counts one hit on every rule's key when none of them is full, and answers 0; otherwise counts
   * nothing and answers the seconds until every full one has room again (what a Retry-After says).
   */
  take(rules: readonly RateRule[]): Promise<number>;
  /** What take would answer, without counting anything. */
  wait(rules: readonly RateRule[]): Promise<number>;
  reset(key?: string): Promise<void>;
  /** Ends the store's connection (nothing for the memory store). */
  close?(): Promise<void>;
}

interface Window {
  /** Hit times, oldest first. */
  hits: number[];
  /** The longest window this key was counted in: how long its hits matter (sweeping). */
  windowMs: number;
}

const SWEEP_EVERY = 1000;

export function createMemoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, Window>();
  let counted = 0;

  /** Seconds until `rule` has room at time t (0: it has room now); drops hits that left its window. */
  const waitOf = (rule: RateRule, t: number): number => {
    if (rule.limit <= 0) return Math.max(1, Math.ceil(rule.windowMs / 1000));
    const w = windows.get(rule.key);
    if (!w) return 0;
    const from = t - rule.windowMs;
    let old = 0;
    while (old < w.hits.length && w.hits[old]! <= from) old++;
    if (old) w.hits.splice(0, old);
    if (w.hits.length < rule.limit) return 0;
    // Room comes back when enough of the oldest hits have left the window.
    const freeing = w.hits[w.hits.length - rule.limit]!;
    return Math.max(1, Math.ceil((freeing + rule.windowMs - t) / 1000));
  };

  const waitAll = (rules: readonly RateRule[], t: number) => rules.reduce((longest, rule) => Math.max(longest, waitOf(rule, t)), 0);

  const sweep = (t: number) => {
    for (const [key, w] of windows) if (!w.hits.length || w.hits[w.hits.length - 1]! <= t - w.windowMs) windows.delete(key);
  };

  const takeAt = (rules: readonly RateRule[], t: number): number => {
    const retryAfter = waitAll(rules, t);
    if (retryAfter > 0) return retryAfter;
    for (const rule of rules) {
      const w = windows.get(rule.key);
      if (w) {
        w.hits.push(t);
        w.windowMs = Math.max(w.windowMs, rule.windowMs);
      } else {
        windows.set(rule.key, { hits: [t], windowMs: rule.windowMs });
      }
    }
    if (++counted % SWEEP_EVERY === 0) sweep(t);
    return 0;
  };

  // Every method does its work before it returns (the promise only carries the answer), so a hit is
  // counted at the moment of the call, as a synchronous limiter would.
  const limiter: RateLimiter = {
    hit(key, limit, windowMs) {
      const t = now();
      const retryAfter = takeAt([{ key, limit, windowMs }], t);
      if (retryAfter > 0) return Promise.reject(errors.rateLimit(retryAfter));
      return Promise.resolve(async () => {
        const hits = windows.get(key)?.hits;
        const i = hits ? hits.lastIndexOf(t) : -1;
        if (hits && i >= 0) hits.splice(i, 1);
      });
    },
    take(rules) {
      return Promise.resolve(takeAt(rules, now()));
    },
    wait(rules) {
      return Promise.resolve(waitAll(rules, now()));
    },
    reset(key) {
      if (key === undefined) windows.clear();
      else windows.delete(key);
      return Promise.resolve();
    },
  };
  return limiter;
}
