import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import ExpandMore from '@mui/icons-material/ExpandMore';
import { texts } from '../i18n/ptBR';
import { format } from '../i18n/format';
import { formatSeconds, reportKeys, reportsApi, useReportFilters, type Metric, type ReportRow } from './reportsApi';
import { ExportMenu, ScheduledExports } from './ExportMenu';
import { ChartBox, DrillDialog, FilterBar, LazyCharts, PageTitle, PeriodTable, QueryState, StatCard, TIME_SERIES, type Drill } from './ReportParts';

const t = texts.reportPages;

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
      <PageTitle action={<ExportMenu kind="conversations" filters={filters} />}>{t.conversations}</PageTitle>
      <FilterBar filters={filters} onChange={setFilters} />
      <ScheduledExports kind="conversations" />
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
                <LazyCharts.Lines data={report.rows} x="label" seconds series={TIME_SERIES} />
              )}
            </ChartBox>
          </Paper>
          <Paper variant="outlined" sx={{ overflowX: 'auto', mb: 2 }}>
            <PeriodTable rows={report.rows} onOpen={open} />
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
