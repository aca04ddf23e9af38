import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import ExpandMore from '@mui/icons-material/ExpandMore';
import { DataTable } from '../common/DataTable';
import { format } from '../i18n/format';
import { CSAT_LABELS } from '../../../api/csat/scale';
import { csatTexts } from '../csat/texts';
import type { CsatDrill, CsatReport } from '../csat/csatApi';
import { useReportFilters, type ReportFilters } from './reportsApi';
import { csatReportApi, csatReportKeys } from './csatReportApi';
import { ChartBox, FilterBar, LazyCharts, PageTitle, QueryState, StatCard } from './ReportParts';

const t = csatTexts.report;
const number = (n: number | null) => (n === null ? '-' : n.toLocaleString('pt-BR', { maximumFractionDigits: 2 }));
const percent = (n: number | null) => (n === null ? '-' : `${n.toLocaleString('pt-BR', { maximumFractionDigits: 1 })}%`);

/** A count that opens the rated calls behind it (0 has none). */
function Count({ value, label, onOpen }: { value: number; label: string; onOpen: () => void }) {
  if (!value) return <>0</>;
  return (
    <Link component="button" type="button" onClick={onOpen} aria-label={label} underline="hover">
      {value}
    </Link>
  );
}

/**
 * /reports/csat 'Satisfação' (docs/csat.md "Reports"): the average rating, the share satisfied, the answer
 * rate and the surveys not sent; the distribution of ratings and the average per period (recharts, lazy);
 * the ratings per agent; every count opens the rated calls behind it, each with 'Abrir conversa'.
 */
export default function CsatReportPage() {
  const [filters, setFilters] = useReportFilters();
  const [drill, setDrill] = useState<CsatDrill | null>(null);
  const q = useQuery({ queryKey: csatReportKeys.report(filters), queryFn: ({ signal }) => csatReportApi.report(filters, signal), placeholderData: keepPreviousData });
  const report = q.data;
  const s = report?.summary;
  return (
    <Box sx={{ p: { xs: 1.5, sm: 3 } }}>
      <PageTitle>{t.title}</PageTitle>
      <FilterBar filters={filters} onChange={setFilters} showMode={false} />
      {report?.ownOnly && <Alert severity="info" sx={{ mb: 2 }}>{t.ownOnly}</Alert>}
      <QueryState isPending={q.isPending} error={q.error} retry={() => void q.refetch()} />
      {report && s && (
        <>
          <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', mb: 2 }}>
            <StatCard testId="csat-average" title={t.average} value={number(s.average)} hint={format(s.count === 1 ? t.averageHintOne : t.averageHint, { count: String(s.count) })} onClick={() => setDrill({ label: t.drillTitle })} />
            <StatCard testId="csat-satisfied" title={t.satisfied} value={percent(s.satisfied)} hint={t.satisfiedHint} />
            <StatCard testId="csat-answer-rate" title={t.answerRate} value={percent(s.answerRate)} hint={format(t.answerRateHint, { answered: String(s.answeredOfSent), sent: String(s.sent) })} />
            <StatCard testId="csat-skipped" title={t.skipped} value={String(s.skipped)} hint={t.skippedHint} />
          </Box>
          {s.count === 0 ? (
            <Typography sx={{ my: 2 }} data-testid="csat-empty">
              {t.empty}
            </Typography>
          ) : (
            <>
              <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, gap: 2, mb: 2 }}>
                <Paper variant="outlined" sx={{ p: 2 }}>
                  <Typography variant="subtitle1" component="h2" fontWeight={600}>
                    {t.distribution}
                  </Typography>
                  <ChartBox>
                    <LazyCharts.Bars data={s.distribution.map((d) => ({ name: `${d.rating}★`, count: d.count }))} x="name" series={[{ key: 'count', name: t.ratings }]} integers />
                  </ChartBox>
                  <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'flex', gap: 2, flexWrap: 'wrap' }} data-testid="csat-distribution">
                    {s.distribution.map((d) => (
                      <li key={d.rating} data-rating={d.rating}>
                        <span title={CSAT_LABELS[d.rating - 1]}>{`${d.rating}★ ${CSAT_LABELS[d.rating - 1]}: `}</span>
                        <Count value={d.count} label={format(t.drillRating, { rating: String(d.rating) })} onOpen={() => setDrill({ rating: d.rating, label: format(t.drillRating, { rating: String(d.rating) }) })} />
                      </li>
                    ))}
                  </Box>
                </Paper>
                <Paper variant="outlined" sx={{ p: 2 }}>
                  <Typography variant="subtitle1" component="h2" fontWeight={600}>
                    {t.byPeriod}
                  </Typography>
                  <ChartBox>
                    <LazyCharts.Lines data={report.rows} x="label" series={[{ key: 'average', name: t.average }]} domain={[1, 5]} />
                  </ChartBox>
                </Paper>
              </Box>
              <Paper variant="outlined" sx={{ overflowX: 'auto', mb: 2 }}>
                <Typography variant="subtitle1" component="h2" fontWeight={600} sx={{ px: 2, pt: 2 }}>
                  {t.byAgent}
                </Typography>
                <AgentTable report={report} onOpen={setDrill} />
              </Paper>
              <Paper variant="outlined" sx={{ overflowX: 'auto', mb: 2 }}>
                <DataTable
                  data-testid="csat-periods"
                  rows={report.rows}
                  rowKey={(r) => r.period}
                  columns={[
                    { header: t.columns.period, cell: (r) => r.labelLong },
                    { header: t.columns.average, cell: (r) => number(r.average) },
                    { header: t.columns.count, cell: (r) => <Count value={r.count} label={`${t.columns.count} ${r.labelLong}`} onOpen={() => setDrill({ range: { from: r.periodFrom, to: r.periodTo }, label: `${t.drillTitle} · ${r.labelLong}` })} /> },
                    { header: t.columns.satisfied, cell: (r) => percent(r.satisfied) },
                  ]}
                />
              </Paper>
            </>
          )}
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
      <CsatDrillDialog drill={drill} filters={filters} onClose={() => setDrill(null)} />
    </Box>
  );
}

function AgentTable({ report, onOpen }: { report: CsatReport; onOpen: (d: CsatDrill) => void }) {
  return (
    <DataTable
      data-testid="csat-agents"
      rowTestId="csat-agent-row"
      rows={report.agents}
      rowKey={(r) => String(r.id)}
      columns={[
        { header: t.columns.agent, cell: (r) => r.name ?? t.noAgent },
        { header: t.columns.average, cell: (r) => number(r.average) },
        {
          header: t.columns.count,
          cell: (r) =>
            r.id === null ? r.count : <Count value={r.count} label={format(t.drillAgent, { name: r.name ?? '' })} onOpen={() => onOpen({ agent: r.id!, label: format(t.drillAgent, { name: r.name ?? '' }) })} />,
        },
        { header: t.columns.satisfied, cell: (r) => percent(r.satisfied) },
      ]}
    />
  );
}

/** The rated calls behind a figure: same filters, each row opening its conversation. */
function CsatDrillDialog({ drill, filters, onClose }: { drill: CsatDrill | null; filters: ReportFilters; onClose: () => void }) {
  const q = useQuery({ queryKey: csatReportKeys.calls(filters, drill), queryFn: ({ signal }) => csatReportApi.calls(filters, drill!, signal), enabled: drill !== null });
  const c = t.drillColumns;
  return (
    <Dialog open={drill !== null} onClose={onClose} maxWidth="md" fullWidth aria-labelledby="csat-drill-title">
      <DialogTitle id="csat-drill-title">{drill?.label ?? ''}</DialogTitle>
      <DialogContent>
        <QueryState isPending={q.isPending && drill !== null} error={q.error} retry={() => void q.refetch()} />
        {q.data && q.data.data.length === 0 && <Typography sx={{ py: 2 }}>{t.drillEmpty}</Typography>}
        {q.data && q.data.data.length > 0 && (
          <DataTable
            data-testid="csat-drill-table"
            rows={q.data.data}
            rowKey={(r) => r.callId}
            rowTestId="csat-drill-row"
            columns={[
              { header: c.protocol, cell: (r) => r.protocol ?? '-' },
              { header: c.customer, cell: (r) => r.customerName ?? '-' },
              { header: c.channel, cell: (r) => r.channelName },
              { header: c.agent, cell: (r) => r.operatorName ?? t.noAgent },
              { header: c.rating, cell: (r) => `${r.rating}★` },
              { header: c.comment, cell: (r) => r.comment ?? '' },
              { header: c.when, cell: (r) => new Date(r.answeredAt).toLocaleString('pt-BR') },
              {
                cell: (r) => (
                  <Button component={RouterLink} to={`/inbox/all/${r.conversationId}`} size="small">
                    {t.openConversation}
                  </Button>
                ),
              },
            ]}
          />
        )}
        {q.data && q.data.hiddenCount > 0 && (
          <Typography variant="caption" color="text.secondary">
            {format(t.drillHidden, { count: String(q.data.hiddenCount) })}
          </Typography>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t.close}</Button>
      </DialogActions>
    </Dialog>
  );
}
