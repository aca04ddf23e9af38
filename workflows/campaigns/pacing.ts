/**
 * Campaign pacing (docs/campaigns.md), pure so the workflow and the bench share it. Times are the
 * campaign's seconds (SPEC §9: batch 100, 1800 s between batches, 1–5 s between messages).
 */
export interface Pacing {
  chunks: number;
  timeBetweenChunks: number;
  initialTimeBetweenMessages: number;
  finalTimeBetweenMessages: number;
}

/** A wait between two messages of a batch, in ms: uniform in [min, max] from the given random in [0, 1). */
export function messageGapMs(p: Pacing, random: number): number {
  const min = p.initialTimeBetweenMessages;
  const max = Math.max(p.finalTimeBetweenMessages, min);
  return Math.round((min + (max - min) * random) * 1000);
}

/** How many numbers one send activity may take: a burst only when nothing must be waited between them. */
export function burstSize(p: Pacing, sentInChunk: number, maxBurst: number): number {
  const left = Math.max(1, p.chunks - sentInChunk);
  return p.finalTimeBetweenMessages <= 0 ? Math.min(left, maxBurst) : 1;
}
