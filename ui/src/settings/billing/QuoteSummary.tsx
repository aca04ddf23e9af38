import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { texts } from '../../i18n/ptBR';
import { format } from '../../i18n/format';
import type { Quote } from './billingApi';
import { formatMoney } from './format';
import { AmountLine } from './parts';

const t = texts.billing.change;

/**
 * What POST /payment/quote answered for the choices on screen: the items, the coupon's discount, the credit
 * of unused time and the total (or, for a change that waits for the period end, from when it applies).
 */
export function QuoteSummary({ quote, loading, couponCode, periodEndDate }: { quote: Quote | undefined; loading: boolean; couponCode: string | null; periodEndDate: string }) {
  return (
    <Box aria-live="polite" aria-busy={loading} data-testid="quote">
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {t.summary}
      </Typography>
      {loading ? <LinearProgress aria-label={t.computing} sx={{ mb: 1 }} /> : <Box sx={{ height: 4, mb: 1 }} />}
      {quote ? (
        <>
          {quote.items.map((item, i) => (
            <AmountLine key={`${item.kind}-${i}`} label={item.label} amount={item.amount} testId={`quote-item-${item.kind}`} />
          ))}
          <Divider sx={{ my: 1 }} />
          <AmountLine label={t.subtotal} amount={quote.subtotal} />
          {quote.discount > 0 ? <AmountLine label={couponCode ? format(t.discount, { code: couponCode }) : t.coupon} amount={quote.discount} negative testId="quote-discount" /> : null}
          {quote.credit > 0 ? <AmountLine label={t.credit} amount={quote.credit} negative testId="quote-credit" /> : null}
          <Divider sx={{ my: 1 }} />
          {quote.effective === 'period_end' ? (
            <Typography data-testid="quote-period-end">{format(t.periodEnd, { date: periodEndDate, amount: formatMoney(quote.total) })}</Typography>
          ) : (
            <AmountLine label={t.total} amount={quote.total} strong testId="quote-total" />
          )}
        </>
      ) : null}
    </Box>
  );
}
