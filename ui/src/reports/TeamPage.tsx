import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import PersonAdd from '@mui/icons-material/PersonAdd';
import { DataTable } from '../common/DataTable';
import { texts } from '../i18n/ptBR';
import { formatSeconds, reportKeys, reportsApi, useReportFilters } from './reportsApi';
import { ChartBox, FilterBar, LazyCharts, PageTitle, QueryState } from './ReportParts';
import { ExportMenu, ScheduledExports } from './ExportMenu';

const t = texts.reportPages;

/** SPEC §2 agents dashboard (/reports/team): times per agent as bars (first word of the name) and the table. */
export default function TeamPage() {
  const [filters, setFilters] = useReportFilters();
  const q = useQuery({ queryKey: reportKeys.agents(filters), queryFn: ({ signal }) => reportsApi.agents(filters, signal), placeholderData: keepPreviousData });
  const rows = q.data;
  return (
    <Box sx={{ p: { xs: 1.5, sm: 3 } }}>
      <PageTitle action={<ExportMenu kind="team" filters={filters} />}>{t.team}</PageTitle>
      <FilterBar filters={filters} onChange={setFilters} showFrequency={false} only={['channels', 'groups', 'tags']} />
      <ScheduledExports kind="team" />
      <QueryState isPending={q.isPending} error={q.error} retry={() => void q.refetch()} />
      {rows && rows.length <= 1 && (
        <Paper variant="outlined" sx={{ p: 2, mb: 2, display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }} data-testid="team-empty">
          <Typography>{t.teamEmpty}</Typography>
          <Button variant="contained" startIcon={<PersonAdd />} component={RouterLink} to="/settings/members/new">
            {t.invite}
          </Button>
        </Paper>
      )}
      {rows && rows.length > 0 && (
        <>
          <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
            <ChartBox>
              <LazyCharts.Bars
                data={rows.map((r) => ({ name: r.firstName, tme: r.firstTimeResponse, tmr: r.timeResponse, tma: r.resolutionTime }))}
                x="name"
                seconds
                series={[
                  { key: 'tme', name: t.cards.tme },
                  { key: 'tmr', name: t.cards.tmr },
                  { key: 'tma', name: t.cards.tma },
                ]}
              />
            </ChartBox>
          </Paper>
          <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
            <DataTable
              data-testid="team-table"
              rows={rows}
              rowTestId="team-row"
              columns={[
                {
                  header: t.teamColumns.name,
                  cell: (r) => (
                    <Link component={RouterLink} to={`/settings/members/${r.id}`}>
                      {r.name}
                    </Link>
                  ),
                },
                { header: t.teamColumns.tme, cell: (r) => formatSeconds(r.firstTimeResponse) },
                { header: t.teamColumns.tmr, cell: (r) => formatSeconds(r.timeResponse) },
                { header: t.teamColumns.tma, cell: (r) => formatSeconds(r.resolutionTime) },
                { header: t.teamColumns.total, cell: (r) => r.totalConversations },
                { header: t.teamColumns.resolved, cell: (r) => r.resolvedConversations },
              ]}
            />
          </Paper>
        </>
      )}
    </Box>
  );
}
