import { lazy, Suspense, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink, useLocation } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import InputLabel from '@mui/material/InputLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { DataTable, type DataColumn } from '../common/DataTable';
import { texts } from '../i18n/ptBR';
import { format } from '../i18n/format';
import { errorDescriptions } from '../providers/httpClient';
import { useSession } from '../providers/session';
import { csatTexts } from '../csat/texts';
import { formatSeconds, reportKeys, reportsApi, type Frequency, type IdFilter, type Metric, type ReportFilters, type ReportRow } from './reportsApi';

const t = texts.reportPages;
/** The satisfaction report's tab (docs/csat.md). */
const csatTab = csatTexts.report.tab;

export const LazyCharts = {
  Lines: lazy(() => import('./Charts').then((m) => ({ default: m.LinesChart }))),
  Bars: lazy(() => import('./Charts').then((m) => ({ default: m.BarsChart }))),
  Pie: lazy(() => import('./Charts').then((m) => ({ default: m.PieChartOf }))),
};

export function ChartBox({ children }: { children: ReactNode }) {
  return (
    <Box sx={{ height: 260, width: '100%' }} data-testid="report-chart">
      <Suspense fallback={<LinearProgress />}>{children}</Suspense>
    </Box>
  );
}

const PAGES = [
  ['/reports/overview', t.overview],
  ['/reports/team', t.team],
  ['/reports/conversations', t.conversations],
  ['/reports/conversations2', t.overviewReport],
  ['/reports/customers', t.customers],
  ['/reports/tags', t.tags],
  ['/reports/csat', csatTab],
] as const;

/** The reports' own navigation and the page title. */
export function PageTitle({ children, action }: { children: ReactNode; action?: ReactNode }) {
  const { pathname } = useLocation();
  const current = PAGES.find(([path]) => pathname.startsWith(path) && (pathname.length === path.length || pathname[path.length] === '/'))?.[0] ?? false;
  return (
    <>
      <Tabs value={current} variant="scrollable" scrollButtons="auto" allowScrollButtonsMobile aria-label={texts.comingSoon.reports} sx={{ mb: 2 }}>
        {PAGES.map(([path, label]) => (
          <Tab key={path} value={path} label={label} component={RouterLink} to={path} />
        ))}
      </Tabs>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="h5" component="h1" fontWeight={700} gutterBottom>
          {children}
        </Typography>
        {action}
      </Box>
    </>
  );
}

/** Loading and error states shared by every report page. */
export function QueryState({ isPending, error, retry }: { isPending: boolean; error: unknown; retry: () => void }) {
  if (isPending) return <LinearProgress aria-label={t.loading} data-testid="report-loading" />;
  if (error)
    return (
      <Alert
        severity="error"
        data-testid="report-error"
        action={
          <Button color="inherit" size="small" onClick={retry}>
            {t.retry}
          </Button>
        }
      >
        {errorDescriptions(error).join(' ')}
      </Alert>
    );
  return null;
}

/** One filter of ids (single choice, or all): channel, group, agent or tag. */
function IdSelect({ which, filters, onChange }: { which: IdFilter; filters: ReportFilters; onChange: (f: ReportFilters) => void }) {
  const choices = useQuery({ queryKey: ['reports', 'choices', which], queryFn: ({ signal }) => reportsApi.choices(which, signal), staleTime: 60_000 });
  const current = filters[which] ?? [];
  const id = `report-${which}`;
  return (
    <FormControl size="small" sx={{ minWidth: 180 }}>
      <InputLabel id={id} shrink>
        {t.filters[which]}
      </InputLabel>
      <Select labelId={id} label={t.filters[which]} notched value={current.length ? String(current[0]) : ''} displayEmpty onChange={(e) => onChange({ ...filters, [which]: e.target.value ? [Number(e.target.value)] : [] })}>
        <MenuItem value="">{t.filtersAll[which]}</MenuItem>
        {(choices.data ?? []).map((c) => (
          <MenuItem key={c.id} value={String(c.id)}>
            {c.name}
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}

const ALL_FILTERS: readonly IdFilter[] = ['channels', 'groups', 'agents', 'tags'];

export function FilterBar({ filters, onChange, showFrequency = true, showMode = true, only = ALL_FILTERS }: { filters: ReportFilters; onChange: (f: ReportFilters) => void; showFrequency?: boolean; showMode?: boolean; only?: readonly IdFilter[] }) {
  // Below level 6 the figures are the viewer's own (docs/reports.md): no agent to choose.
  const session = useSession();
  const ownOnly = !session || session.workspace.accessLevel < 6;
  return (
    <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center', my: 2 }} data-testid="report-filters">
      <FormControl size="small" sx={{ minWidth: 180 }}>
        <InputLabel id="report-period">{t.period}</InputLabel>
        <Select labelId="report-period" label={t.period} value={filters.days} onChange={(e) => onChange({ ...filters, days: Number(e.target.value) as ReportFilters['days'] })}>
          {([7, 30, 90] as const).map((d) => (
            <MenuItem key={d} value={d}>
              {t.periods[d]}
            </MenuItem>
          ))}
        </Select>
      </FormControl>
      {showFrequency && (
        <FormControl size="small" sx={{ minWidth: 140 }}>
          <InputLabel id="report-frequency">{t.frequency}</InputLabel>
          <Select labelId="report-frequency" label={t.frequency} value={filters.frequency} onChange={(e) => onChange({ ...filters, frequency: e.target.value as Frequency })}>
            {(['daily', 'weekly', 'monthly'] as const).map((f) => (
              <MenuItem key={f} value={f}>
                {t.frequencies[f]}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
      )}
      {only
        .filter((key) => key !== 'agents' || !ownOnly)
        .map((key) => (
          <IdSelect key={key} which={key} filters={filters} onChange={onChange} />
        ))}
      {showMode && (
        <FormControlLabel
          data-testid="report-mode"
          control={<Switch size="small" checked={Boolean(filters.businessHours)} onChange={(e) => onChange({ ...filters, businessHours: e.target.checked })} />}
          label={<Typography variant="body2" color="text.secondary">{filters.businessHours ? t.modeBusiness : t.mode}</Typography>}
        />
      )}
    </Box>
  );
}

export function StatCard({ title, value, hint, onClick, testId }: { title: string; value: string; hint?: string; onClick?: () => void; testId?: string }) {
  const body = (
    <CardContent>
      <Typography variant="overline" color="text.secondary">
        {title}
      </Typography>
      <Typography variant="h5" component="p" fontWeight={700} data-testid={testId ? `${testId}-value` : undefined}>
        {value}
      </Typography>
      {hint && (
        <Typography variant="caption" color="text.secondary">
          {hint}
        </Typography>
      )}
    </CardContent>
  );
  return (
    <Card variant="outlined" sx={{ minWidth: 160, flex: '1 1 160px' }} data-testid={testId}>
      {onClick ? <CardActionArea onClick={onClick}>{body}</CardActionArea> : body}
    </Card>
  );
}

/** The three times of a report row as chart series (SPEC §2 productivity lines). */
export const TIME_SERIES = [
  { key: 'firstTimeResponse', name: t.cards.tme },
  { key: 'timeResponse', name: t.cards.tmr },
  { key: 'resolutionTime', name: t.cards.tma },
];

const PERIOD_CELLS: readonly [Metric, (r: ReportRow) => string][] = [
  ['tme', (r) => formatSeconds(r.firstTimeResponse)],
  ['tmr', (r) => formatSeconds(r.timeResponse)],
  ['tma', (r) => formatSeconds(r.resolutionTime)],
  ['new', (r) => String(r.newConversations)],
  ['resolved', (r) => String(r.resolvedConversations)],
];

/** A number of the table that opens the calls behind it ('-' and 0 have none). */
function Num({ value, onOpen, label }: { value: string; onOpen?: () => void; label: string }) {
  if (!onOpen || value === '-' || value === '0') return <>{value}</>;
  return (
    <Link component="button" type="button" onClick={onOpen} aria-label={label} underline="hover">
      {value}
    </Link>
  );
}

/** The table by period (SPEC §3 Report rows); with `onOpen`, every number opens the calls behind it. */
export function PeriodTable({ rows, onOpen }: { rows: readonly ReportRow[]; onOpen?: (metric: Metric, row: ReportRow) => void }) {
  return (
    <DataTable
      data-testid="report-table"
      rows={rows}
      rowKey={(r) => r.period}
      rowTestId="report-row"
      columns={[
        { header: t.columns.period, cell: (r) => r.labelLong },
        ...PERIOD_CELLS.map(([metric, value]): DataColumn<ReportRow> => ({
          header: t.columns[metric],
          cell: (r) => <Num value={value(r)} label={`${t.columns[metric]} ${r.labelLong}`} onOpen={onOpen && (() => onOpen(metric, r))} />,
        })),
      ]}
    />
  );
}

/** TablePagination's "1–10 de 30". */
export const displayedRows = ({ from, to, count }: { from: number; to: number; count: number }) => `${from}–${to} de ${count}`;

export interface Drill {
  metric: Metric;
  range?: { from: string; to: string };
  label?: string;
}

/** The calls behind a number: same filters, each row opening its conversation. */
export function DrillDialog({ drill, filters, onClose }: { drill: Drill | null; filters: ReportFilters; onClose: () => void }) {
  const q = useQuery({
    queryKey: reportKeys.calls(filters, drill?.metric ?? 'new', drill?.range),
    queryFn: ({ signal }) => reportsApi.calls(filters, drill!.metric, drill!.range, signal),
    enabled: drill !== null,
  });
  const timed = drill && drill.metric !== 'new' && drill.metric !== 'resolved';
  return (
    <Dialog open={drill !== null} onClose={onClose} maxWidth="md" fullWidth aria-labelledby="drill-title">
      <DialogTitle id="drill-title">
        {drill ? t.drillTitle[drill.metric] : ''}
        {drill?.label ? ` · ${drill.label}` : ''}
      </DialogTitle>
      <DialogContent>
        <QueryState isPending={q.isPending && drill !== null} error={q.error} retry={() => void q.refetch()} />
        {q.data && q.data.data.length === 0 && <Typography sx={{ py: 2 }}>{t.drillEmpty}</Typography>}
        {q.data && q.data.data.length > 0 && (
          <DataTable
            data-testid="drill-table"
            rows={q.data.data}
            rowKey={(r) => r.callId}
            rowTestId="drill-row"
            columns={[
              { header: t.drillColumns.protocol, cell: (r) => r.protocol ?? '-' },
              { header: t.drillColumns.customer, cell: (r) => r.customerName ?? '-' },
              { header: t.drillColumns.channel, cell: (r) => r.channelName },
              { header: t.drillColumns.agent, cell: (r) => r.operatorName ?? '-' },
              !!timed && { header: t.drillColumns.time, cell: (r) => formatSeconds(r.seconds) },
              { header: t.drillColumns.when, cell: (r) => new Date(r.at).toLocaleString('pt-BR') },
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
            {format(t.drillHidden, { count: q.data.hiddenCount })}
          </Typography>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t.close}</Button>
      </DialogActions>
    </Dialog>
  );
}
