import { Link as RouterLink } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'react-admin';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { errorDescriptions } from '../providers/httpClient';
import { Loading, RetryAlert } from '../inbox/loadStates';
import { ScheduleForm, zonedDateTime, type ScheduleTarget } from './ScheduleForm';
import { ScheduleActions, scheduleRepeatLine, scheduleSummary, StateChip } from './ScheduleParts';
import { scheduleKeys, schedulesApi, useConversationSchedules, useWorkspaceZone } from './schedulesApi';
import { scheduleTexts } from './texts';

const t = scheduleTexts.dialog;

/** The conversation's schedules, pending ones first (each with Editar / Cancelar when the viewer may). */
function ConversationSchedules({ conversationId }: { conversationId: number }) {
  const list = useConversationSchedules(conversationId);
  if (list.isPending) return <Loading size={20} padding={1} />;
  if (list.isError) return <RetryAlert onRetry={() => void list.refetch()}>{[scheduleTexts.list.loadError, ...errorDescriptions(list.error)].join(' ')}</RetryAlert>;
  const rows = [...list.data.data].sort((a, b) => Number(b.state === 'scheduled') - Number(a.state === 'scheduled'));
  if (!rows.length) return <Typography variant="body2" color="text.secondary">{scheduleTexts.conversationList.empty}</Typography>;
  return (
    <Box component="ul" aria-label={scheduleTexts.conversationList.title} data-testid="conversation-schedules" sx={{ listStyle: 'none', m: 0, p: 0, display: 'flex', flexDirection: 'column', gap: 1 }}>
      {rows.map((s) => (
        <Box component="li" key={s.id} data-testid="conversation-schedule" sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
            <Typography fontWeight={600} fontSize={14}>
              {zonedDateTime(s.dueAt, s.timeZone)}
            </Typography>
            <StateChip schedule={s} />
            <Typography variant="caption" color="text.secondary">
              {scheduleRepeatLine(s)}
            </Typography>
          </Box>
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
            {scheduleSummary(s)}
          </Typography>
          {s.error ? (
            <Typography variant="caption" color="error">
              {s.error}
            </Typography>
          ) : null}
          <ScheduleActions schedule={s} />
        </Box>
      ))}
    </Box>
  );
}

/**
 * 'Agendar' from a conversation's composer (docs/scheduled-messages.md): the form, prefilled with what was
 * typed, and the conversation's own schedules below it. Loaded on first use (React.lazy in the composer).
 * `onClose(true)` after a message was scheduled, so the composer can clear what it handed over.
 */
export function ScheduleMessageDialog({ conversation, text, onClose }: { conversation: ScheduleTarget; text: string; onClose: (scheduled: boolean) => void }) {
  const qc = useQueryClient();
  const notify = useNotify();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const zone = useWorkspaceZone();
  return (
    <Dialog open onClose={() => onClose(false)} fullWidth maxWidth="sm" fullScreen={phone} aria-labelledby="schedule-dialog-title">
      <DialogTitle id="schedule-dialog-title">{t.title}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary">
          {t.intro}
        </Typography>
        {zone.isPending ? (
          <Loading />
        ) : zone.isError ? (
          <RetryAlert onRetry={() => void zone.refetch()}>{errorDescriptions(zone.error).join(' ')}</RetryAlert>
        ) : (
          <ScheduleForm
            target={conversation}
            zone={zone.data}
            initialText={text}
            onCancel={() => onClose(false)}
            onSubmit={async (body) => {
              await schedulesApi.create({ conversationId: conversation.id, ...body });
              await qc.invalidateQueries({ queryKey: scheduleKeys.all });
              notify(t.created, { type: 'success' });
              onClose(true);
            }}
          />
        )}
        <Divider sx={{ my: 2 }} />
        <Typography component="h3" variant="subtitle2" sx={{ mb: 1 }}>
          {scheduleTexts.conversationList.title}
        </Typography>
        <ConversationSchedules conversationId={conversation.id} />
        <Link component={RouterLink} to="/schedules" variant="body2" sx={{ display: 'inline-block', mt: 1.5 }}>
          {scheduleTexts.conversationList.all}
        </Link>
      </DialogContent>
    </Dialog>
  );
}
