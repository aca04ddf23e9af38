import { Link as RouterLink, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import PrintOutlined from '@mui/icons-material/PrintOutlined';
import { texts } from '../i18n/ptBR';
import { format } from '../i18n/format';
import { RequireLevel } from '../layout/RequireLevel';
import { billingApi, billingKeys, pickTransaction, type InvoiceDetail, type InvoiceTransaction } from '../settings/billing/billingApi';
import { formatDigitableLine } from '../settings/billing/boletoLine';
import { maskDocument } from '../settings/billing/document';
import { formatDay, formatDayTime, formatMoney } from '../settings/billing/format';
import { InvoiceStatusChip } from '../settings/billing/InvoiceStatusChip';
import { AmountLine, LabeledValue, LoadState, planWithBilling, TestModeChip } from '../settings/billing/parts';
import { PRINT_AREA, PrintStyles } from '../settings/billing/PrintStyles';
import { useBillingLive } from '../settings/billing/live';

const t = texts.billing.invoice;

/** What was (or is to be) paid with: the method, and for an open one the Pix code or the boleto's line. */
function PaymentData({ transaction }: { transaction: InvoiceTransaction }) {
  const payment = transaction.payment;
  return (
    <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))' } }}>
      <LabeledValue label={t.method}>{t.methods[transaction.method] ?? transaction.method}</LabeledValue>
      {transaction.paidAt ? <LabeledValue label={t.paidAt}>{formatDayTime(transaction.paidAt)}</LabeledValue> : null}
      {payment?.method === 'boleto' ? (
        <>
          <LabeledValue label={t.dueAt}>{formatDay(payment.dueDate)}</LabeledValue>
          <Box sx={{ gridColumn: '1 / -1', minWidth: 0 }}>
            <LabeledValue label={texts.billing.payment.digitableLine}>
              <Box component="span" sx={{ fontFamily: 'monospace' }}>
                {formatDigitableLine(payment.digitableLine)}
              </Box>
            </LabeledValue>
          </Box>
        </>
      ) : null}
      {payment?.method === 'pix' && transaction.status !== 'paid' ? (
        <Box sx={{ gridColumn: '1 / -1', minWidth: 0 }}>
          <LabeledValue label={texts.billing.payment.copyPaste}>
            <Box component="span" sx={{ fontFamily: 'monospace', fontSize: 13, wordBreak: 'break-all' }}>
              {payment.brCode}
            </Box>
          </LabeledValue>
        </Box>
      ) : null}
    </Box>
  );
}

function InvoiceDocument({ detail, transactionId }: { detail: InvoiceDetail; transactionId: number }) {
  const { invoice } = detail;
  const transaction = pickTransaction(detail, transactionId);
  // SPEC §4: a paid transaction shows 'Recibo' with a stamp, otherwise 'Fatura'.
  const paid = transaction ? transaction.status === 'paid' : invoice.status === 'paid';
  const title = paid ? t.receipt : t.invoice;
  return (
    <Paper variant="outlined" className={PRINT_AREA} data-testid="invoice-document" data-paid={paid} sx={{ p: { xs: 2, sm: 4 }, maxWidth: 820, position: 'relative', overflow: 'hidden' }}>
      {paid ? (
        <Box
          data-testid="paid-stamp"
          aria-label={t.paidStamp}
          sx={{
            position: 'absolute',
            top: { xs: 16, sm: 28 },
            right: { xs: 8, sm: 28 },
            transform: 'rotate(-14deg)',
            border: 4,
            borderColor: 'success.main',
            color: 'success.main',
            borderRadius: 2,
            px: 2,
            py: 0.5,
            fontWeight: 800,
            fontSize: { xs: 22, sm: 32 },
            letterSpacing: 4,
            opacity: 0.85,
            pointerEvents: 'none',
          }}
        >
          {t.paidStamp}
        </Box>
      ) : null}
      <Typography variant="h4" component="h1" fontWeight={800} sx={{ mb: 0.5 }}>
        {title}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 3 }}>
        <Typography color="text.secondary">{texts.brand}</Typography>
        <TestModeChip testMode={detail.testMode} />
      </Box>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, minmax(0, 1fr))' }, mb: 3 }}>
        <LabeledValue label={t.order}>{invoice.order}</LabeledValue>
        <LabeledValue label={t.issued}>{formatDay(invoice.createdAt)}</LabeledValue>
        <LabeledValue label={t.status}>
          <InvoiceStatusChip status={invoice.status} />
        </LabeledValue>
        <LabeledValue label={texts.billing.license.plan}>{planWithBilling(invoice.plan, invoice.months)}</LabeledValue>
        <LabeledValue label={t.period}>{`${formatDay(invoice.periodStart)} – ${formatDay(invoice.expiresAt)}`}</LabeledValue>
        {invoice.paidAt ? <LabeledValue label={t.paidAt}>{formatDay(invoice.paidAt)}</LabeledValue> : invoice.dueAt ? <LabeledValue label={t.dueAt}>{formatDay(invoice.dueAt)}</LabeledValue> : null}
      </Box>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, minmax(0, 1fr))' }, mb: 3 }}>
        <LabeledValue label={t.customer}>{detail.payer?.name || detail.workspace.name}</LabeledValue>
        {detail.payer?.document ? <LabeledValue label={t.document}>{maskDocument(detail.payer.document)}</LabeledValue> : null}
        {detail.payer?.email ? <LabeledValue label={t.email}>{detail.payer.email}</LabeledValue> : null}
      </Box>
      <Box sx={{ overflowX: 'auto', mb: 2 }}>
        <Table size="small" aria-label={title}>
          <TableHead>
            <TableRow>
              <TableCell>{t.item}</TableCell>
              <TableCell align="right">{t.quantity}</TableCell>
              <TableCell align="right">{t.amount}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(invoice.items ?? []).map((item, i) => (
              <TableRow key={`${item.kind}-${i}`}>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>{item.label}</TableCell>
                <TableCell align="right">{item.quantity}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {formatMoney(item.amount)}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
      <Box sx={{ ml: { sm: 'auto' }, maxWidth: { sm: 360 }, mb: 3 }}>
        <AmountLine label={t.subtotal} amount={invoice.total} />
        {invoice.discount > 0 ? (
          <AmountLine label={invoice.coupon ? format(t.coupon, { code: invoice.coupon.code, percent: invoice.coupon.percent }) : texts.billing.change.coupon} amount={invoice.discount} negative testId="invoice-discount" />
        ) : null}
        {invoice.credit > 0 ? <AmountLine label={t.credit} amount={invoice.credit} negative testId="invoice-credit" /> : null}
        <AmountLine label={t.total} amount={invoice.amount} strong testId="invoice-total" />
      </Box>
      {transaction ? (
        <>
          <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
            {t.payment}
          </Typography>
          <PaymentData transaction={transaction} />
        </>
      ) : null}
    </Paper>
  );
}

/**
 * /invoices/{id}/{transactionId} (SPEC §2): the invoice as a document — 'Recibo' with the PAGO stamp once its
 * transaction is paid, otherwise 'Fatura' — with items, coupon, credit, total and payment data; printable
 * without the app around it.
 */
export function InvoicePage() {
  const params = useParams();
  const id = Number(params.id);
  const transactionId = Number(params.transactionId);
  const valid = Number.isInteger(id) && id > 0;
  const { data, error, isPending } = useQuery({ queryKey: billingKeys.invoice(id), queryFn: () => billingApi.invoice(id), enabled: valid });
  useBillingLive();
  const open = data && (data.invoice.status === 'pending' || data.invoice.status === 'overdue');
  return (
    <RequireLevel level={6}>
      <PrintStyles />
      <Box sx={{ p: { xs: 2, md: 4 } }}>
        <Box className="billing-no-print" sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 2, maxWidth: 820 }}>
          <Button component={RouterLink} to="/settings/billing/invoices">
            {t.back}
          </Button>
          <Box sx={{ flex: 1 }} />
          {open ? (
            <Button variant="outlined" component={RouterLink} to={`/settings/billing/payment/${id}`}>
              {t.pay}
            </Button>
          ) : null}
          {data ? (
            <Button variant="contained" startIcon={<PrintOutlined />} onClick={() => window.print()}>
              {t.print}
            </Button>
          ) : null}
        </Box>
        <LoadState isPending={isPending && valid} error={error} />
        {!valid ? <Alert severity="error">{texts.billing.payment.notFound}</Alert> : null}
        {data ? <InvoiceDocument detail={data} transactionId={transactionId} /> : null}
      </Box>
    </RequireLevel>
  );
}
