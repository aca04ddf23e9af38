import { errors } from './errors';

/**
 * Sliding-window counters kept in process memory. With several api nodes behind a balancer each node
 * counts on its own (documented in docs/decisions.md); the interface lets a shared store replace it.
 */
export interface RateLimiter {
  /**
   * Counts one hit for key; throws RateLimitError (429 with Retry-After) once the window is full.
   * Answers a function that gives this hit back, for limits that count only failed attempts.
   */
  hit(key: string, limit: number, windowMs: number): () => void;
  reset(key?: string): void;
}

export function createMemoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const hits = new Map<string, number[]>();
  let sweeps = 0;
  return {
    hit(key, limit, windowMs) {
      const t = now();
      const list = (hits.get(key) ?? []).filter((at) => at > t - windowMs);
      if (list.length >= limit) {
        const retryAfter = Math.max(1, Math.ceil((list[0] + windowMs - t) / 1000));
        hits.set(key, list);
        throw errors.rateLimit(retryAfter);
      }
      list.push(t);
      hits.set(key, list);
      if (++sweeps % 1000 === 0) {
        for (const [k, v] of hits) if (v.every((at) => at <= t - 3_600_000)) hits.delete(k);
      }
      return () => {
        const current = hits.get(key);
        const i = current ? current.indexOf(t) : -1;
        if (current && i >= 0) current.splice(i, 1);
      };
    },
    reset(key) {
      if (key === undefined) hits.clear();
      else hits.delete(key);
    },
  };
}
