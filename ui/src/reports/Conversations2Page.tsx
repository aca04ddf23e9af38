import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import TablePagination from '@mui/material/TablePagination';
import Typography from '@mui/material/Typography';
import { texts } from '../i18n/ptBR';
import { reportKeys, reportsApi, useReportFilters } from './reportsApi';
import { ChartBox, displayedRows, FilterBar, LazyCharts, PageTitle, PeriodTable, QueryState, TIME_SERIES } from './ReportParts';

const t = texts.reportPages;
/** SPEC §9: the overview table shows 10 rows a page. */
const PAGE_SIZE = 10;

/** SPEC §2 overview report (/reports/conversations2): productivity/times and chat volume lines, table by period. */
export default function Conversations2Page() {
  const [filters, setFilters] = useReportFilters();
  const [page, setPage] = useState(0);
  const q = useQuery({ queryKey: reportKeys.report(filters), queryFn: ({ signal }) => reportsApi.report(filters, signal), placeholderData: keepPreviousData });
  const report = q.data;
  const rows = report?.rows ?? [];
  return (
    <Box sx={{ p: { xs: 1.5, sm: 3 } }}>
      <PageTitle>{t.overviewReport}</PageTitle>
      <FilterBar
        filters={filters}
        onChange={(f) => {
          setPage(0);
          setFilters(f);
        }}
      />
      <QueryState isPending={q.isPending} error={q.error} retry={() => void q.refetch()} />
      {report && (
        <>
          {report.summary.newConversations === 0 && report.summary.resolvedConversations === 0 && (
            <Typography sx={{ my: 2 }} data-testid="report-empty">
              {t.empty}
            </Typography>
          )}
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, mb: 2 }}>
            <Paper variant="outlined" sx={{ p: 2 }}>
              <Typography variant="subtitle1" fontWeight={700}>
                {t.productivity}
              </Typography>
              <ChartBox>
                <LazyCharts.Lines data={rows} x="label" seconds series={TIME_SERIES} />
              </ChartBox>
            </Paper>
            <Paper variant="outlined" sx={{ p: 2 }}>
              <Typography variant="subtitle1" fontWeight={700}>
                {t.volume}
              </Typography>
              <ChartBox>
                <LazyCharts.Lines
                  data={rows}
                  x="label"
                  series={[
                    { key: 'newConversations', name: t.cards.new },
                    { key: 'resolvedConversations', name: t.cards.resolved },
                  ]}
                />
              </ChartBox>
            </Paper>
          </Box>
          <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
            <PeriodTable rows={rows.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE)} />
            <TablePagination component="div" count={rows.length} page={page} rowsPerPage={PAGE_SIZE} rowsPerPageOptions={[PAGE_SIZE]} onPageChange={(_, p: number) => setPage(p)} labelDisplayedRows={displayedRows} />
          </Paper>
        </>
      )}
    </Box>
  );
}
