import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import ExpandMore from '@mui/icons-material/ExpandMore';
import { texts } from '../i18n/ptBR';
import { format } from '../i18n/format';
import { formatSeconds, reportKeys, reportsApi, useReportFilters, type Metric, type ReportRow } from './reportsApi';
import { ChartBox, DrillDialog, FilterBar, LazyCharts, PageTitle, QueryState, StatCard, type Drill } from './ReportParts';

const t = texts.reportPages;

/** A number of the table that opens the calls behind it. */
function Num({ value, onOpen, label }: { value: string; onOpen?: () => void; label: string }) {
  if (!onOpen || value === '-' || value === '0') return <>{value}</>;
  return (
    <Link component="button" type="button" onClick={onOpen} aria-label={label} underline="hover">
      {value}
    </Link>
  );
}

/** SPEC §2 'Relatório de Conversas' (docs/reports.md): cards, graph selector, table by period, filters, definitions, drill-down. */
export default function ConversationsReportPage() {
  const [filters, setFilters] = useReportFilters();
  const [graph, setGraph] = useState<'resolved' | 'times'>('resolved');
  const [drill, setDrill] = useState<Drill | null>(null);
  const q = useQuery({ queryKey: reportKeys.report(filters), queryFn: ({ signal }) => reportsApi.report(filters, signal), placeholderData: keepPreviousData });
  const report = q.data;
  const s = report?.summary;
  const empty = report && report.summary.newConversations === 0 && report.summary.resolvedConversations === 0 && report.summary.firstTimeResponse === null;
  const open = (metric: Metric, row?: ReportRow) => setDrill({ metric, range: row ? { from: row.periodFrom, to: row.periodTo } : undefined, label: row?.labelLong });

  return (
    <Box sx={{ p: { xs: 1.5, sm: 3 } }}>
      <PageTitle>{t.conversations}</PageTitle>
      <FilterBar filters={filters} onChange={setFilters} />
      {report?.ownOnly && <Alert severity="info" sx={{ mb: 2 }}>{t.ownOnly}</Alert>}
      <QueryState isPending={q.isPending} error={q.error} retry={() => void q.refetch()} />
      {report && s && (
        <>
          <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', mb: 2 }}>
            <StatCard testId="card-tme" title={t.cards.tme} value={formatSeconds(s.firstTimeResponse)} hint={format(t.medianP90, { median: formatSeconds(s.firstTimeResponseMedian), p90: formatSeconds(s.firstTimeResponseP90) })} onClick={() => open('tme')} />
            <StatCard testId="card-tma" title={t.cards.tma} value={formatSeconds(s.resolutionTime)} hint={format(t.medianP90, { median: formatSeconds(s.resolutionTimeMedian), p90: formatSeconds(s.resolutionTimeP90) })} onClick={() => open('tma')} />
            <StatCard testId="card-new" title={t.cards.new} value={String(s.newConversations)} onClick={() => open('new')} />
            <StatCard testId="card-resolved" title={t.cards.resolved} value={String(s.resolvedConversations)} onClick={() => open('resolved')} />
          </Box>
          {empty && (
            <Typography sx={{ my: 2 }} data-testid="report-empty">
              {t.empty}
            </Typography>
          )}
          <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
            <Tabs value={graph} onChange={(_, v: 'resolved' | 'times') => setGraph(v)} aria-label={t.graph}>
              <Tab value="resolved" label={t.graphs.resolved} />
              <Tab value="times" label={t.graphs.times} />
            </Tabs>
            <ChartBox>
              {graph === 'resolved' ? (
                <LazyCharts.Lines data={report.rows} x="label" series={[{ key: 'resolvedConversations', name: t.cards.resolved }, { key: 'newConversations', name: t.cards.new }]} />
              ) : (
                <LazyCharts.Lines
                  data={report.rows}
                  x="label"
                  seconds
                  series={[
                    { key: 'firstTimeResponse', name: t.cards.tme },
                    { key: 'timeResponse', name: t.cards.tmr },
                    { key: 'resolutionTime', name: t.cards.tma },
                  ]}
                />
              )}
            </ChartBox>
          </Paper>
          <Paper variant="outlined" sx={{ overflowX: 'auto', mb: 2 }}>
            <Table size="small" data-testid="report-table">
              <TableHead>
                <TableRow>
                  <TableCell>{t.columns.period}</TableCell>
                  <TableCell>{t.columns.tme}</TableCell>
                  <TableCell>{t.columns.tmr}</TableCell>
                  <TableCell>{t.columns.tma}</TableCell>
                  <TableCell>{t.columns.new}</TableCell>
                  <TableCell>{t.columns.resolved}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {report.rows.map((r) => (
                  <TableRow key={r.period} data-testid="report-row">
                    <TableCell>{r.labelLong}</TableCell>
                    <TableCell>
                      <Num value={formatSeconds(r.firstTimeResponse)} label={`${t.columns.tme} ${r.labelLong}`} onOpen={() => open('tme', r)} />
                    </TableCell>
                    <TableCell>
                      <Num value={formatSeconds(r.timeResponse)} label={`${t.columns.tmr} ${r.labelLong}`} onOpen={() => open('tmr', r)} />
                    </TableCell>
                    <TableCell>
                      <Num value={formatSeconds(r.resolutionTime)} label={`${t.columns.tma} ${r.labelLong}`} onOpen={() => open('tma', r)} />
                    </TableCell>
                    <TableCell>
                      <Num value={String(r.newConversations)} label={`${t.columns.new} ${r.labelLong}`} onOpen={() => open('new', r)} />
                    </TableCell>
                    <TableCell>
                      <Num value={String(r.resolvedConversations)} label={`${t.columns.resolved} ${r.labelLong}`} onOpen={() => open('resolved', r)} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Paper>
        </>
      )}
      <Accordion variant="outlined" disableGutters>
        <AccordionSummary expandIcon={<ExpandMore />}>{t.info}</AccordionSummary>
        <AccordionDetails>
          {t.definitions.map((d) => (
            <Typography key={d} variant="body2" paragraph>
              {d}
            </Typography>
          ))}
        </AccordionDetails>
      </Accordion>
      <DrillDialog drill={drill} filters={filters} onClose={() => setDrill(null)} />
    </Box>
  );
}
