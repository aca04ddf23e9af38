import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'react-admin';
import { errorDescriptions } from '../providers/httpClient';
import { format } from '../i18n/format';
import { Platform } from '../inbox/constants';
import { ScheduleForm, zonedDateTime } from './ScheduleForm';
import { scheduleKeys, schedulesApi, type Schedule } from './schedulesApi';
import { scheduleTexts } from './texts';

const t = scheduleTexts.list;

const STATE_COLORS = { scheduled: 'info', sent: 'success', failed: 'error', canceled: 'default' } as const;

/** The state as a chip: Agendada, Enviada, Falhou (its reason as the tooltip), Cancelada. */
export function StateChip({ schedule }: { schedule: Schedule }) {
  return <Chip size="small" color={STATE_COLORS[schedule.state]} label={scheduleTexts.states[schedule.state]} title={schedule.error ?? undefined} data-testid="schedule-state" />;
}

/** What a schedule sends, in one line: the template's name, the text, the file. */
export function scheduleSummary(s: Schedule): string {
  if (s.template) return format(t.template, { name: s.template.name });
  return [s.text.trim(), s.file ? format(t.file, { name: s.file.fileName }) : null].filter(Boolean).join(' · ');
}

/** "repete diária até 30/12/2026", "enviada 3×". */
export function scheduleRepeatLine(s: Schedule): string {
  const parts: string[] = [];
  if (s.repeat !== 'none') {
    const repeat = scheduleTexts.repeatShort[s.repeat];
    parts.push(s.repeatUntil ? format(t.repeatsUntil, { repeat, until: s.repeatUntil.split('-').reverse().join('/') }) : format(t.repeats, { repeat }));
  }
  if (s.sentCount > 1 || (s.repeat !== 'none' && s.sentCount > 0)) parts.push(format(t.sentCount, { count: s.sentCount }));
  return parts.join(' · ');
}

/** The channel's platform id for the form's window check (the list knows the channel type only). */
const PLATFORM_OF: Record<string, number> = { whatsapp: Platform.WHATSAPP, telegram: Platform.TELEGRAM, facebook: Platform.FACEBOOK, widget: Platform.WIDGET, email: Platform.EMAIL, custom: Platform.CUSTOM, instagram: Platform.INSTAGRAM };

/** 'Editar': the form over a pending schedule, full screen on a phone. */
export function EditScheduleDialog({ schedule, onClose }: { schedule: Schedule; onClose: () => void }) {
  const qc = useQueryClient();
  const notify = useNotify();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" fullScreen={phone} aria-labelledby="schedule-edit-title">
      <DialogTitle id="schedule-edit-title">{scheduleTexts.dialog.editTitle}</DialogTitle>
      <DialogContent>
        <ScheduleForm
          target={{ id: schedule.conversationId, platformId: PLATFORM_OF[schedule.channel.type] ?? 0, lastMessageAt: schedule.updatedAt }}
          zone={schedule.timeZone}
          initial={schedule}
          onCancel={onClose}
          onSubmit={async (body) => {
            await schedulesApi.update(schedule.id, body);
            await qc.invalidateQueries({ queryKey: scheduleKeys.all });
            notify(scheduleTexts.dialog.updated, { type: 'success' });
            onClose();
          }}
        />
      </DialogContent>
    </Dialog>
  );
}

/** 'Cancelar agendamento' asks first (SPEC §5: a permanent action asks for confirmation). */
export function CancelScheduleDialog({ schedule, onClose }: { schedule: Schedule; onClose: () => void }) {
  const qc = useQueryClient();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await schedulesApi.cancel(schedule.id);
      await qc.invalidateQueries({ queryKey: scheduleKeys.all });
      notify(t.canceled, { type: 'success' });
      onClose();
    } catch (err) {
      for (const message of errorDescriptions(err)) notify(message, { type: 'error' });
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby="schedule-cancel-title" aria-describedby="schedule-cancel-text">
      <DialogTitle id="schedule-cancel-title">{t.cancelConfirmTitle}</DialogTitle>
      <DialogContent>
        <Typography id="schedule-cancel-text">{t.cancelConfirm}</Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {zonedDateTime(schedule.dueAt, schedule.timeZone)} · {scheduleSummary(schedule)}
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {t.keep}
        </Button>
        <Button color="error" variant="contained" onClick={() => void confirm()} disabled={busy} data-testid="schedule-cancel-confirm">
          {t.confirmCancel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Editar / Cancelar of one schedule, with their dialogs; nothing for one the viewer may not change. */
export function ScheduleActions({ schedule }: { schedule: Schedule }) {
  const [open, setOpen] = useState<'edit' | 'cancel' | null>(null);
  if (!schedule.canEdit) return null;
  return (
    <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
      <Button size="small" onClick={() => setOpen('edit')} data-testid="schedule-edit">
        {t.edit}
      </Button>
      <Button size="small" color="error" onClick={() => setOpen('cancel')} data-testid="schedule-cancel">
        {t.cancelSchedule}
      </Button>
      {open === 'edit' ? <EditScheduleDialog schedule={schedule} onClose={() => setOpen(null)} /> : null}
      {open === 'cancel' ? <CancelScheduleDialog schedule={schedule} onClose={() => setOpen(null)} /> : null}
    </Box>
  );
}
