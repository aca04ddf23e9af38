import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import InputLabel from '@mui/material/InputLabel';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Select from '@mui/material/Select';
import Typography from '@mui/material/Typography';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import FileDownload from '@mui/icons-material/FileDownload';
import { texts } from '../i18n/ptBR';
import { format } from '../i18n/format';
import { errorDescriptions, isHttpError } from '../providers/httpClient';
import { useSession } from '../providers/session';
import { exportsApi, reportsApi, type ExportKind, type ReportFilters } from './reportsApi';

const t = texts.reportPages;
const s = t.schedules;

/**
 * SPEC §2 export menu 'Exportar para Email': the api answers at once and mails the .xlsx and .csv; the toast
 * says where ('Relatório será enviado em breve para {email}', SPEC §8). Level 6 and above also program a
 * weekly or monthly e-mail of the report (docs/reports.md "Scheduled exports").
 */
export function ExportMenu({ kind, filters }: { kind: ExportKind; filters: ReportFilters }) {
  const notify = useNotify();
  const session = useSession();
  const canSchedule = (session?.workspace.accessLevel ?? 0) >= 6;
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [scheduling, setScheduling] = useState(false);
  const send = useMutation({
    mutationFn: () => exportsApi.email(kind, filters),
    onSuccess: (email) => notify(format(t.exportSent, { email }), { type: 'success' }),
    // A refused filter says why (field errors); anything else is SPEC §8's export error.
    onError: (err) => notify(isHttpError(err) && err.status === 400 ? errorDescriptions(err).join(' ') : t.exportError, { type: 'error' }),
  });
  return (
    <>
      <Button variant="outlined" size="small" startIcon={<FileDownload />} onClick={(e) => setAnchor(e.currentTarget)} data-testid="report-export" disabled={send.isPending}>
        {t.exportMenu}
      </Button>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        <MenuItem
          onClick={() => {
            setAnchor(null);
            send.mutate();
          }}
        >
          {t.exportEmail}
        </MenuItem>
        {canSchedule && (
          <MenuItem
            onClick={() => {
              setAnchor(null);
              setScheduling(true);
            }}
          >
            {s.add}
          </MenuItem>
        )}
      </Menu>
      {scheduling && <ScheduleDialog kind={kind} filters={filters} onClose={() => setScheduling(false)} />}
    </>
  );
}

function ScheduleDialog({ kind, filters, onClose }: { kind: ExportKind; filters: ReportFilters; onClose: () => void }) {
  const notify = useNotify();
  const queryClient = useQueryClient();
  const session = useSession();
  const [frequency, setFrequency] = useState<'weekly' | 'monthly'>('weekly');
  const [chosen, setChosen] = useState<number[]>(session ? [session.user.id] : []);
  const members = useQuery({ queryKey: ['reports', 'choices', 'agents'], queryFn: ({ signal }) => reportsApi.choices('agents', signal) });
  const save = useMutation({
    mutationFn: () => exportsApi.createSchedule(kind, frequency, chosen, filters),
    onSuccess: () => {
      notify(s.saved, { type: 'success' });
      void queryClient.invalidateQueries({ queryKey: ['reports', 'schedules'] });
      onClose();
    },
    onError: (err) => notify(errorDescriptions(err).join(' '), { type: 'error' }),
  });
  const toggle = (id: number) => setChosen((c) => (c.includes(id) ? c.filter((x) => x !== id) : [...c, id]));
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>{s.add}</DialogTitle>
      <DialogContent>
        <FormControl size="small" fullWidth sx={{ mt: 1, mb: 2 }}>
          <InputLabel id="schedule-frequency">{s.frequency}</InputLabel>
          {/* The choices are long ('Semanal (segunda-feira, 7h: a semana anterior)'): on a phone they wrap instead of ending in '…'. */}
          <Select
            labelId="schedule-frequency"
            label={s.frequency}
            value={frequency}
            onChange={(e) => setFrequency(e.target.value as 'weekly' | 'monthly')}
            sx={{ '& .MuiSelect-select': { whiteSpace: 'normal' } }}
            MenuProps={{ slotProps: { paper: { sx: { '& .MuiMenuItem-root': { whiteSpace: 'normal' } } } } }}
          >
            <MenuItem value="weekly">{s.frequencies.weekly}</MenuItem>
            <MenuItem value="monthly">{s.frequencies.monthly}</MenuItem>
          </Select>
        </FormControl>
        <Typography variant="subtitle2">{s.recipients}</Typography>
        <Box sx={{ display: 'flex', flexDirection: 'column' }} data-testid="schedule-recipients">
          {(members.data ?? []).map((m) => (
            <FormControlLabel key={m.id} control={<Checkbox checked={chosen.includes(m.id)} onChange={() => toggle(m.id)} />} label={m.name} />
          ))}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{s.cancel}</Button>
        <Button variant="contained" disabled={!chosen.length || save.isPending} onClick={() => save.mutate()}>
          {s.save}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The report's programmed e-mails (level 6+), each cancellable. */
export function ScheduledExports({ kind }: { kind: ExportKind }) {
  const notify = useNotify();
  const queryClient = useQueryClient();
  const session = useSession();
  const allowed = (session?.workspace.accessLevel ?? 0) >= 6;
  const q = useQuery({ queryKey: ['reports', 'schedules'], queryFn: ({ signal }) => exportsApi.schedules(signal), enabled: allowed });
  const remove = useMutation({
    mutationFn: (id: number) => exportsApi.deleteSchedule(id),
    onSuccess: () => {
      notify(s.removed, { type: 'success' });
      void queryClient.invalidateQueries({ queryKey: ['reports', 'schedules'] });
    },
    onError: (err) => notify(errorDescriptions(err).join(' '), { type: 'error' }),
  });
  const rows = (q.data ?? []).filter((r) => r.kind === kind);
  if (!allowed || !rows.length) return null;
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2 }} data-testid="report-schedules">
      <Typography variant="subtitle1">{s.title}</Typography>
      <List dense>
        {rows.map((r) => (
          <ListItem
            key={r.id}
            data-testid="report-schedule"
            secondaryAction={
              <IconButton edge="end" aria-label={s.remove} title={s.remove} onClick={() => remove.mutate(r.id)}>
                <DeleteOutline />
              </IconButton>
            }
          >
            <ListItemText primary={s.frequencies[r.frequency]} secondary={r.recipients.map((p) => p.name ?? p.email ?? `#${p.id}`).join(', ')} />
          </ListItem>
        ))}
      </List>
    </Paper>
  );
}
