import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { texts } from '../i18n/ptBR';
import { format } from '../i18n/format';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import { formatSeconds, reportKeys, reportsApi } from './reportsApi';
import { ChartBox, LazyCharts, PageTitle, QueryState, StatCard } from './ReportParts';
import { CHANNEL_LABELS } from '../../../api/reports/schema';

const t = texts.reportPages;
/** Calls move in bursts: the board reads again at most once a second, and always after the last event. */
const REFRESH_MS = 1000;
const MOVES = new Set(['chat.newCall', 'chat.callStatus', 'chat.newMessage']);

/** SPEC §2 'Resumo de hoje' (/reports/overview), live over MQTT: every call event reads the board again. */
export default function OverviewPage() {
  const qc = useQueryClient();
  const [graph, setGraph] = useState<'customers' | 'week'>('customers');
  const q = useQuery({ queryKey: reportKeys.dashboard, queryFn: ({ signal }) => reportsApi.dashboard(signal) });
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  useRealtimeEvent((event) => {
    if (!MOVES.has(event.event) || timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = undefined;
      void qc.invalidateQueries({ queryKey: reportKeys.dashboard });
    }, REFRESH_MS);
  });
  const d = q.data;
  const count = (n: number) => (n === 0 ? '-' : String(n));
  return (
    <Box sx={{ p: { xs: 1.5, sm: 3 } }}>
      <PageTitle>{t.overview}</PageTitle>
      <Typography variant="caption" color="text.secondary">
        {t.live} · {t.mode}
      </Typography>
      <QueryState isPending={q.isPending} error={q.error} retry={() => void q.refetch()} />
      {d && (
        <>
          <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', my: 2 }}>
            <StatCard testId="stat-online" title={t.stats.online} value={String(d.agents.connected)} hint={d.agents.away ? format(t.stats.away, { count: d.agents.away }) : undefined} />
            <StatCard testId="stat-connected-today" title={t.stats.connectedToday} value={String(d.agents.connectedToday)} />
            <StatCard testId="stat-total" title={t.stats.total} value={count(d.agents.total)} />
            <StatCard testId="stat-waiting" title={t.stats.waiting} value={String(d.inbox.waiting)} />
            <StatCard testId="stat-assigned" title={t.stats.assigned} value={String(d.inbox.assigned)} />
            <StatCard testId="stat-resolved-today" title={t.stats.resolvedToday} value={String(d.inbox.resolvedToday)} />
            <StatCard testId="stat-average-wait" title={t.stats.averageWait} value={formatSeconds(d.averageTime.waiting)} />
            <StatCard testId="stat-average-service" title={t.stats.averageService} value={formatSeconds(d.averageTime.resolution)} />
          </Box>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '2fr 1fr' } }}>
            <Paper variant="outlined" sx={{ p: 2 }}>
              <Tabs value={graph} onChange={(_, v: 'customers' | 'week') => setGraph(v)} aria-label={t.graph} variant="scrollable" scrollButtons="auto" allowScrollButtonsMobile>
                <Tab value="customers" label={t.graphs.customers} />
                <Tab value="week" label={t.graphs.week} />
              </Tabs>
              <ChartBox>
                {graph === 'customers' ? (
                  <LazyCharts.Pie data={d.customerDistribution.map((c) => ({ name: CHANNEL_LABELS[c.channel] ?? c.channel, value: c.count }))} />
                ) : (
                  <LazyCharts.Lines
                    data={d.weekConversations}
                    x="weekday"
                    series={[
                      { key: 'new', name: t.cards.new },
                      { key: 'resolved', name: t.cards.resolved },
                    ]}
                  />
                )}
              </ChartBox>
            </Paper>
            <Paper variant="outlined" sx={{ p: 2 }} data-testid="oldest-waiting">
              <Typography variant="subtitle1" fontWeight={700}>
                {t.oldestWaiting}
              </Typography>
              {d.oldestWaiting.length === 0 ? (
                <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                  {t.noneWaiting}
                </Typography>
              ) : (
                <List dense>
                  {d.oldestWaiting.map((o) => (
                    <ListItemButton key={o.channelId} component={RouterLink} to={`/inbox/all/${o.conversationId}`}>
                      <ListItemText primary={`${o.channelName} · ${o.customerName ?? '-'}`} secondary={format(t.waitingSince, { time: new Date(o.waitingSince).toLocaleString('pt-BR') })} />
                    </ListItemButton>
                  ))}
                </List>
              )}
            </Paper>
          </Box>
        </>
      )}
    </Box>
  );
}
