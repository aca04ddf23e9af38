import { Link as RouterLink, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { SCHEDULE_STATES, SCHEDULES_PAGE_SIZE, type ScheduleState } from '../../../api/schedules/schema';
import { DataTable, keepFromRow } from '../common/DataTable';
import { TablePager } from '../common/TablePager';
import { format } from '../i18n/format';
import { apiList } from '../inbox/contact/listApi';
import { CardList, ListStates } from '../common/ListStates';
import { useAgents } from '../inbox/queries';
import { zonedDateTime } from './ScheduleForm';
import { ScheduleActions, scheduleRepeatLine, scheduleSummary, StateChip } from './ScheduleParts';
import { useSchedules, type Schedule, type ScheduleFilters } from './schedulesApi';
import { scheduleTexts } from './texts';

const t = scheduleTexts.list;

/** The filters and the page live in the URL (?state, operatorId, channelId, page): a reload or a shared link shows the same view. */
function useListState() {
  const [params, setParams] = useSearchParams();
  const state = params.get('state');
  const id = (key: string) => (/^[1-9][0-9]{0,9}$/.test(params.get(key) ?? '') ? Number(params.get(key)) : ('' as const));
  const filters: ScheduleFilters = {
    state: (SCHEDULE_STATES as readonly string[]).includes(state ?? '') ? (state as ScheduleState) : '',
    operatorId: id('operatorId'),
    channelId: id('channelId'),
  };
  const page = Math.max(0, Number(params.get('page') ?? 0) || 0);
  const set = (patch: Partial<ScheduleFilters> & { page?: number }) => {
    const next = { ...filters, page: 0, ...patch };
    const out = new URLSearchParams();
    if (next.state) out.set('state', next.state);
    if (next.operatorId) out.set('operatorId', String(next.operatorId));
    if (next.channelId) out.set('channelId', String(next.channelId));
    if (next.page) out.set('page', String(next.page));
    setParams(out, { replace: true });
  };
  return { filters, page, set };
}

function useChannelChoices() {
  return useQuery({
    queryKey: ['schedules', 'channels'],
    queryFn: async ({ signal }) =>
      (await apiList<{ id: number; description: string | null; name: string | null }>('/integrations/channel', { limit: 1000 }, signal)).data.map((c) => ({ id: c.id, name: c.description || c.name || `#${c.id}` })),
    staleTime: 60_000,
    retry: false,
  });
}

const conversationPath = (s: Schedule) => `/inbox/all/${s.conversationId}`;

function When({ s }: { s: Schedule }) {
  return (
    <>
      <Typography fontSize={14} fontWeight={600} sx={{ whiteSpace: 'nowrap' }}>
        {zonedDateTime(s.dueAt, s.timeZone)}
      </Typography>
      <Typography variant="caption" color="text.secondary">
        {scheduleRepeatLine(s)}
      </Typography>
    </>
  );
}

function StateCell({ s }: { s: Schedule }) {
  return (
    <Box>
      <StateChip schedule={s} />
      {s.error ? (
        <Typography variant="caption" color="error" sx={{ display: 'block', mt: 0.5, maxWidth: 260 }}>
          {s.error}
        </Typography>
      ) : null}
    </Box>
  );
}

function ScheduleTable({ rows }: { rows: Schedule[] }) {
  return (
    <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
      <DataTable
        aria-label={t.title}
        data-testid="schedules-table"
        rows={rows}
        rowTestId="schedule-row"
        columns={[
          { header: t.columns.when, cell: (s) => <When s={s} /> },
          {
            header: t.columns.contact,
            cell: (s) => (
              <Link component={RouterLink} to={conversationPath(s)} title={t.openConversation}>
                {s.contactName || `#${s.conversationId}`}
              </Link>
            ),
          },
          { header: t.columns.channel, cell: (s) => s.channel.name },
          { header: t.columns.message, cell: (s) => scheduleSummary(s), cellProps: () => ({ sx: { maxWidth: 320, overflowWrap: 'anywhere' } }) },
          { header: t.columns.by, cell: (s) => s.operator?.name ?? '' },
          { header: t.columns.state, cell: (s) => <StateCell s={s} /> },
          { header: t.columns.actions, cell: (s) => <ScheduleActions schedule={s} />, cellProps: () => keepFromRow },
        ]}
      />
    </Paper>
  );
}

function ScheduleCard({ s }: { s: Schedule }) {
  return (
    <Card variant="outlined" component="li" data-testid="schedule-row" sx={{ listStyle: 'none', p: 1.5 }}>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1 }}>
        <Box>
          <When s={s} />
        </Box>
        <StateCell s={s} />
      </Box>
      <Link component={RouterLink} to={conversationPath(s)} variant="body2">
        {s.contactName || `#${s.conversationId}`}
      </Link>
      <Typography variant="body2" color="text.secondary">
        {[s.channel.name, s.operator?.name].filter(Boolean).join(' · ')}
      </Typography>
      <Typography variant="body2" sx={{ overflowWrap: 'anywhere', my: 0.5 }}>
        {scheduleSummary(s)}
      </Typography>
      <ScheduleActions schedule={s} />
    </Card>
  );
}

/**
 * /schedules (docs/scheduled-messages.md): every schedule of the conversations the viewer may see, soonest
 * first, filtered by agent, channel and state, paged; Editar / Cancelar on the pending ones the viewer may
 * change. A phone shows cards.
 */
export default function SchedulesPage() {
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const { filters, page, set } = useListState();
  const list = useSchedules(filters, page);
  const agents = useAgents();
  const channels = useChannelChoices();
  const filtered = Boolean(filters.state || filters.operatorId || filters.channelId);

  return (
    <Box sx={{ p: { xs: 1.5, sm: 3 }, maxWidth: 1200, mx: 'auto' }}>
      <Typography component="h1" variant="h5" fontWeight={700}>
        {t.title}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t.intro}
      </Typography>
      <Stack component="section" aria-label={t.filters} direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mb: 2 }} useFlexGap flexWrap="wrap">
        <TextField select size="small" label={t.state} value={filters.state} onChange={(e) => set({ state: e.target.value as ScheduleState | '' })} sx={{ minWidth: 160 }} slotProps={{ htmlInput: { 'data-testid': 'schedules-state' } }}>
          <MenuItem value="">{t.any}</MenuItem>
          {SCHEDULE_STATES.map((s) => (
            <MenuItem key={s} value={s}>
              {scheduleTexts.states[s]}
            </MenuItem>
          ))}
        </TextField>
        <TextField select size="small" label={t.agent} value={filters.operatorId} onChange={(e) => set({ operatorId: e.target.value === '' ? '' : Number(e.target.value) })} sx={{ minWidth: 200 }}>
          <MenuItem value="">{t.any}</MenuItem>
          {(agents.data ?? []).map((a) => (
            <MenuItem key={a.id} value={a.id}>
              {a.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField select size="small" label={t.channel} value={filters.channelId} onChange={(e) => set({ channelId: e.target.value === '' ? '' : Number(e.target.value) })} sx={{ minWidth: 200 }}>
          <MenuItem value="">{t.any}</MenuItem>
          {(channels.data ?? []).map((c) => (
            <MenuItem key={c.id} value={c.id}>
              {c.name}
            </MenuItem>
          ))}
        </TextField>
        {filtered ? (
          <Button size="small" onClick={() => set({ state: '', operatorId: '', channelId: '' })}>
            {t.clear}
          </Button>
        ) : null}
      </Stack>
      <ListStates
        list={list}
        testId="schedules"
        loadError={t.loadError}
        empty={t.empty}
        emptyHelp={filtered ? undefined : t.emptyHelp}
        count={(n) => (n === 1 ? t.countOne : format(t.count, { count: n }))}
      >
        {(rows, matchCount) => (
          <>
            {phone ? (
              <CardList testId="schedules-cards">
                {rows.map((s) => (
                  <ScheduleCard key={s.id} s={s} />
                ))}
              </CardList>
            ) : (
              <ScheduleTable rows={rows} />
            )}
            <TablePager count={matchCount} page={page} pageSize={SCHEDULES_PAGE_SIZE} onPageChange={(p) => set({ page: p })} buttonLabel={(b) => t.pager[b]} />
          </>
        )}
      </ListStates>
    </Box>
  );
}
