import { useNavigate } from 'react-router';
import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { texts } from '../../i18n/ptBR';
import { ResourceList, type ResourceColumn } from '../common';
import { billingApi, billingKeys, type InvoiceRow } from './billingApi';
import { formatDay, formatMoney } from './format';
import { useBillingLive } from './live';
import { InvoiceStatusChip } from './InvoiceStatusChip';
import { planWithBilling, TestModeChip } from './parts';

const t = texts.billing.invoices;

const columns: ResourceColumn<InvoiceRow>[] = [
  { label: t.columns.order, render: (r) => r.order },
  { label: t.columns.date, render: (r) => formatDay(r.createdAt) },
  { label: t.columns.plan, render: (r) => planWithBilling(r.plan, r.months) },
  { label: t.columns.amount, render: (r) => formatMoney(r.amount) },
  { label: t.columns.status, render: (r) => <InvoiceStatusChip status={r.status} /> },
];

/** /settings/billing/invoices (SPEC §2): every invoice at once (SPEC §9: 999), a row opens its page. */
export function InvoicesPage() {
  const navigate = useNavigate();
  const { data, error, isPending } = useQuery({ queryKey: billingKeys.invoices, queryFn: billingApi.invoices });
  useBillingLive();
  return (
    <>
      <ResourceList
        title={t.title}
        action={<TestModeChip testMode={undefined} />}
        empty={t.empty}
        columns={columns}
        rows={data}
        total={data?.length ?? 0}
        onOpen={(row) => navigate(`/invoices/${row.id}/${row.transactionId ?? 0}`)}
        error={error}
        loading={isPending}
      />
      <Box sx={{ mt: 2 }}>
        <Button component={RouterLink} to="/settings/billing/license">
          {t.back}
        </Button>
      </Box>
    </>
  );
}
