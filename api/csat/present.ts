import type { CsatScale } from './schema';

/**
 * A CSAT question as the widget and the inbox show it, read from the question message's `extra_data.csat`
 * (api/csat/requestCsat.ts, completed by recordAnswer.ts): pure, so the widget API and the fan-out share it.
 */
export interface CsatView {
  state: 'pending' | 'answered' | 'expired';
  scale: CsatScale;
  rating: number | null;
  comment: string | null;
  thanks: string;
  until: string;
}

export function csatViewOf(extraData: unknown, now = Date.now()): CsatView | undefined {
  const csat = (extraData as { csat?: Record<string, unknown> } | null | undefined)?.csat;
  if (!csat || csat.kind !== 'question') return undefined;
  const rating = typeof csat.rating === 'number' ? csat.rating : null;
  const until = typeof csat.until === 'string' ? csat.until : new Date(0).toISOString();
  return {
    state: rating !== null ? 'answered' : Date.parse(until) <= now ? 'expired' : 'pending',
    scale: csat.scale === 'emojis' ? 'emojis' : 'numbers',
    rating,
    comment: typeof csat.comment === 'string' ? csat.comment : null,
    thanks: typeof csat.thanks === 'string' ? csat.thanks : '',
    until,
  };
}
