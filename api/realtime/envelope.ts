import { randomBytes } from 'node:crypto';
import type { RealtimeEnvelope } from './publisher';

const SEQ_WIDTH = 4;
const SEQ_LIMIT = 36 ** SEQ_WIDTH;

/**
 * Event ids sort as strings in publication order: fixed-width base-36 milliseconds, a per-millisecond
 * counter and a tag. Within a source they never go backwards, even if the clock does; the random tag
 * keeps ids of two processes (api, worker) or two runs apart when they share a millisecond.
 */
export function eventIdSource(tag: string = randomBytes(3).toString('hex')): (now?: number) => string {
  let lastMs = 0;
  let seq = 0;
  return (now = Date.now()) => {
    if (now > lastMs) {
      lastMs = now;
      seq = 0;
    } else if (++seq >= SEQ_LIMIT) {
      lastMs += 1;
      seq = 0;
    }
    return `${lastMs.toString(36).padStart(9, '0')}-${seq.toString(36).padStart(SEQ_WIDTH, '0')}-${tag}`;
  };
}

export const nextEventId = eventIdSource();

export function makeEnvelope<T>(event: string, data: T): RealtimeEnvelope<T> {
  return { event, data, id: nextEventId(), at: new Date().toISOString() };
}

/** Publishers only write to concrete topics: no wildcards, no broker-reserved `$` topics. */
export function assertPublishableTopic(topic: string): void {
  if (!topic || topic.startsWith('$') || /[#+]/.test(topic) || topic.includes('\0')) {
    throw new Error(`Tópico inválido para publicação: ${topic}`);
  }
}
