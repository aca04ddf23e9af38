import type { Knex } from 'knex';

/**
 * Group commit for the small statements every inbound message sends (docs/performance.md "Ingest"): a
 * call made while no run is in flight goes out at once, alone, so nothing waits when the api is idle;
 * calls made while a run is in flight wait for it to end and then go out together, as one statement. Under
 * load, each message then costs a share of one round trip instead of a whole one, and the api's core (its
 * socket writes and result parsing per statement) goes further; an answer never waits longer than the
 * run in flight plus its own.
 *
 * `run` gets the keys of one batch (at most `maxBatch`, in call order; a key called twice appears twice)
 * and answers a value per key; a key it leaves out resolves to undefined. A run that fails rejects every
 * call of its batch.
 */
export function coalescing<K, R>(run: (knex: Knex, keys: K[]) => Promise<Map<K, R>>, maxBatch = 256): (knex: Knex, key: K) => Promise<R | undefined> {
  interface Call {
    key: K;
    resolve(value: R | undefined): void;
    reject(err: unknown): void;
  }
  // One queue per knex instance (one database): calls for different databases never share a statement.
  const queues = new WeakMap<Knex, { waiting: Call[]; running: boolean }>();

  async function drain(knex: Knex, queue: { waiting: Call[]; running: boolean }): Promise<void> {
    queue.running = true;
    try {
      while (queue.waiting.length) {
        const batch = queue.waiting.splice(0, maxBatch);
        try {
          const values = await run(
            knex,
            batch.map((c) => c.key),
          );
          for (const c of batch) c.resolve(values.get(c.key));
        } catch (err) {
          for (const c of batch) c.reject(err);
        }
      }
    } finally {
      queue.running = false;
    }
  }

  return (knex, key) =>
    new Promise<R | undefined>((resolve, reject) => {
      let queue = queues.get(knex);
      if (!queue) queues.set(knex, (queue = { waiting: [], running: false }));
      queue.waiting.push({ key, resolve, reject });
      if (!queue.running) void drain(knex, queue);
    });
}
