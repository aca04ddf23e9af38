import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import PersonAdd from '@mui/icons-material/PersonAdd';
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
            <Table size="small" data-testid="team-table">
              <TableHead>
                <TableRow>
                  <TableCell>{t.teamColumns.name}</TableCell>
                  <TableCell>{t.teamColumns.tme}</TableCell>
                  <TableCell>{t.teamColumns.tmr}</TableCell>
                  <TableCell>{t.teamColumns.tma}</TableCell>
                  <TableCell>{t.teamColumns.total}</TableCell>
                  <TableCell>{t.teamColumns.resolved}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((r) => (
                  <TableRow key={r.id} data-testid="team-row">
                    <TableCell>
                      <Link component={RouterLink} to={`/settings/members/${r.id}`}>
                        {r.name}
                      </Link>
                    </TableCell>
                    <TableCell>{formatSeconds(r.firstTimeResponse)}</TableCell>
                    <TableCell>{formatSeconds(r.timeResponse)}</TableCell>
                    <TableCell>{formatSeconds(r.resolutionTime)}</TableCell>
                    <TableCell>{r.totalConversations}</TableCell>
                    <TableCell>{r.resolvedConversations}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Paper>
        </>
      )}
    </Box>
  );
}
