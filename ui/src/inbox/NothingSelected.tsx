import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import ForumOutlined from '@mui/icons-material/ForumOutlined';
import { shellTexts as texts } from '../i18n/shellTexts';
import { format } from '../i18n/format';
import { useInboxCounter } from './queries';

const t = texts.inbox;

/**
 * SPEC §2: with nothing selected, 'Nenhuma conversa selecionada.' and the pending count, each count saying
 * what it counts: unread (the number beside Inbox) and pending (open, no agent yet).
 */
export function NothingSelected() {
  const { data } = useInboxCounter();
  const pending = data?.pending ?? 0;
  const unread = data?.all ?? 0;
  return (
    <Box component="section" data-testid="nothing-selected" sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 1, color: 'text.secondary' }}>
      <ForumOutlined sx={{ fontSize: 48 }} aria-hidden />
      <Typography>{t.noneSelected}</Typography>
      {data ? (
        <Box role="status" sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 0.25, fontSize: 14 }}>
          <Typography data-testid="unread-count" title={t.unreadHelp} sx={{ fontSize: 14 }}>
            {unread === 1 ? t.unreadCountOne : format(t.unreadCountMany, { count: unread })}
          </Typography>
          <Typography data-testid="pending-count" title={t.pendingHelp} sx={{ fontSize: 14 }}>
            {pending === 1 ? t.pendingOne : format(t.pendingMany, { count: pending })}
          </Typography>
        </Box>
      ) : null}
    </Box>
  );
}
