import Box from '@mui/material/Box';
import StarRounded from '@mui/icons-material/StarRounded';
import StarOutlineRounded from '@mui/icons-material/StarOutlineRounded';
import { format } from '../i18n/format';
import type { CsatExtra, Message } from '../inbox/types';
import { csatLabels } from './labels';

const t = csatLabels.message;

/** The message's CSAT part, if it is the survey's question, thanks, or the customer's typed answer. */
export const csatOf = (m: Pick<Message, 'Call'>): CsatExtra | undefined => m.Call?.extraData?.csat;

/** Who the question and the thanks come from, in place of 'Bot'. */
export const csatAuthor = (m: Pick<Message, 'Call'>): string | undefined => {
  const kind = csatOf(m)?.kind;
  return kind === 'question' || kind === 'thanks' ? t.survey : undefined;
};

function Stars({ rating }: { rating: number }) {
  return (
    <Box component="span" role="img" aria-label={format(t.answer, { rating: String(rating) })} sx={{ display: 'inline-flex', color: '#f5a524', verticalAlign: 'middle' }}>
      {[1, 2, 3, 4, 5].map((i) => (i <= rating ? <StarRounded key={i} sx={{ fontSize: 16 }} aria-hidden /> : <StarOutlineRounded key={i} sx={{ fontSize: 16 }} aria-hidden />))}
    </Box>
  );
}

/**
 * Under the survey's question: the rating the customer gave (stars, the comment), or that it is still
 * awaited, or that the time to answer is over; under a typed answer, the rating it was read as.
 */
export function CsatBubbleLine({ message }: { message: Pick<Message, 'Call'> }) {
  const csat = csatOf(message);
  if (!csat || (csat.kind !== 'question' && csat.kind !== 'answer')) return null;
  const rating = typeof csat.rating === 'number' ? csat.rating : null;
  if (csat.kind === 'answer') {
    return rating ? (
      <Box data-testid="csat-answer" sx={{ mt: 0.25, fontSize: 12, color: 'text.secondary', display: 'flex', alignItems: 'center', gap: 0.5 }}>
        <Stars rating={rating} />
        <span>{format(t.answer, { rating: String(rating) })}</span>
      </Box>
    ) : null;
  }
  const expired = rating === null && csat.until !== undefined && Date.parse(csat.until) <= Date.now();
  return (
    <Box data-testid="csat-status" data-rating={rating ?? undefined} sx={{ mt: 0.5, pt: 0.5, borderTop: '1px dashed', borderColor: 'divider', fontSize: 12, color: 'text.secondary' }}>
      {rating ? (
        <>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, fontWeight: 600, color: 'text.primary' }}>
            <Stars rating={rating} />
            <span>{format(t.rated, { rating: String(rating) })}</span>
          </Box>
          {csat.comment ? <Box sx={{ mt: 0.25, fontStyle: 'italic', overflowWrap: 'anywhere' }}>“{csat.comment}”</Box> : null}
        </>
      ) : (
        <span>{expired ? t.expired : t.pending}</span>
      )}
    </Box>
  );
}
