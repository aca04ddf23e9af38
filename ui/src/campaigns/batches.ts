import type { Campaign } from './types';

const FINAL = new Set(['finished_success', 'finished_fail', 'canceled']);

export type BatchState = 'done' | 'running' | 'waiting' | 'stopped';
export interface Batch {
  n: number;
  from: number;
  to: number;
  state: BatchState;
}

/**
 * The batches of a campaign from its counters: numbers go out in file order, `chunks` per batch, so the
 * batch in progress is the one holding the next number (docs/campaigns-ui.md). Only a window of at most
 * `max` batches around the current one is built (a 100k-number campaign in batches of 1 has 100k).
 */
export function campaignBatches(c: Pick<Campaign, 'status' | 'chunks' | 'totalNumbers' | 'totalNumbersExecuted'>, max = Number.POSITIVE_INFINITY): { total: number; start: number; batches: Batch[] } {
  const size = Math.max(1, c.chunks);
  const total = Math.ceil(Math.max(0, c.totalNumbers) / size);
  const finished = FINAL.has(c.status);
  const current = Math.min(Math.max(0, total - 1), Math.floor(Math.max(0, c.totalNumbersExecuted) / size));
  const start = Math.max(0, Math.min(current - 2, total - max));
  const end = Math.min(total, start + max);
  const batches: Batch[] = [];
  for (let i = start; i < end; i++) {
    const from = i * size + 1;
    const to = Math.min(c.totalNumbers, (i + 1) * size);
    let state: BatchState;
    if (c.totalNumbersExecuted >= to) state = 'done';
    else if (finished) state = 'stopped';
    else if (c.totalNumbersExecuted > from - 1 && c.status === 'executing') state = 'running';
    else state = 'waiting';
    batches.push({ n: i + 1, from, to, state });
  }
  return { total, start, batches };
}
