import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import TablePagination from '@mui/material/TablePagination';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { DataTable } from '../common/DataTable';
import { texts } from '../i18n/ptBR';
import { listsApi, useReportFilters } from './reportsApi';
import { displayedRows, FilterBar, PageTitle, QueryState } from './ReportParts';

const t = texts.reportPages;
/** SPEC §9: tables show 20 rows a page. */
const PAGE_SIZE = 20;

/** SPEC §2 contacts report (/reports/customers): name, e-mail, cell phone, service channel; 'Contato criado entre'. */
export default function CustomersReportPage() {
  const [filters, setFilters] = useReportFilters();
  const [created, setCreated] = useState({ from: '', to: '' });
  const [page, setPage] = useState(0);
  // An 'Até' before the 'De' is told at the field and not asked (the api would refuse it).
  const reversed = Boolean(created.from && created.to && created.to < created.from);
  const range = created.from && created.to && !reversed ? created : undefined;
  const q = useQuery({
    queryKey: ['reports', 'customers', filters.channels, range, page],
    queryFn: ({ signal }) => listsApi.customers(filters, range, PAGE_SIZE, page * PAGE_SIZE, signal),
    placeholderData: keepPreviousData,
  });
  const setRange = (next: { from: string; to: string }) => {
    setPage(0);
    setCreated(next);
  };
  return (
    <Box sx={{ p: { xs: 1.5, sm: 3 } }}>
      <PageTitle>{t.customers}</PageTitle>
      <FilterBar filters={filters} onChange={setFilters} showFrequency={false} showMode={false} only={['channels']} />
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap', mb: 2 }}>
        <Typography variant="body2">{t.createdBetween}</Typography>
        <TextField size="small" type="date" label={t.createdFrom} value={created.from} onChange={(e) => setRange({ ...created, from: e.target.value })} slotProps={{ inputLabel: { shrink: true } }} />
        <TextField
          size="small"
          type="date"
          label={t.createdTo}
          value={created.to}
          onChange={(e) => setRange({ ...created, to: e.target.value })}
          error={reversed}
          helperText={reversed ? t.createdReversed : undefined}
          slotProps={{ inputLabel: { shrink: true } }}
        />
      </Box>
      <QueryState isPending={q.isPending} error={q.error} retry={() => void q.refetch()} />
      {q.data && q.data.data.length === 0 && <Typography data-testid="report-empty">{t.noCustomers}</Typography>}
      {q.data && q.data.data.length > 0 && (
        <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
          <DataTable
            data-testid="customers-table"
            rows={q.data.data}
            rowTestId="customer-row"
            columns={[
              { header: t.customerColumns.name, cell: (c) => c.name ?? '-' },
              { header: t.customerColumns.email, cell: (c) => c.email ?? '-' },
              { header: t.customerColumns.phone, cell: (c) => c.phone ?? '-' },
              { header: t.customerColumns.channel, cell: (c) => c.channels.map((x) => x.label).join(', ') || '-' },
            ]}
          />
          <TablePagination component="div" count={q.data.matchCount} page={page} rowsPerPage={PAGE_SIZE} rowsPerPageOptions={[PAGE_SIZE]} onPageChange={(_, p: number) => setPage(p)} labelDisplayedRows={displayedRows} />
        </Paper>
      )}
    </Box>
  );
}
