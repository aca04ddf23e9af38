import Chip from '@mui/material/Chip';
import { texts } from '../../i18n/ptBR';
import type { InvoiceStatus } from './billingApi';

const COLORS: Record<InvoiceStatus, 'success' | 'warning' | 'error' | 'default'> = {
  paid: 'success',
  pending: 'warning',
  overdue: 'error',
  canceled: 'default',
  expired: 'default',
  refunded: 'default',
};

export function InvoiceStatusChip({ status }: { status: InvoiceStatus }) {
  return <Chip size="small" color={COLORS[status] ?? 'default'} label={texts.billing.invoices.status[status] ?? status} />;
}
