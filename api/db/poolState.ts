import type { Knex } from 'knex';

interface TarnPool {
  numPendingAcquires(): number;
}

/**
 * How many queries of this process are waiting for a pool connection (knex's tarn pool) right now: 0 when
 * the pool keeps up. Background work (the inbound republish sweep) steps aside while it is above 0, and the
 * widget's message route refuses early when it is far above (api/channels/widget/visitorRouter.ts).
 */
export function poolWaiters(knex: Knex): number {
  const pool = (knex.client as { pool?: TarnPool }).pool;
  return pool ? pool.numPendingAcquires() : 0;
}
