import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import ForumOutlined from '@mui/icons-material/ForumOutlined';
import { texts } from '../i18n/ptBR';
import { format } from '../i18n/format';
import { useInboxCounter } from './queries';

const t = texts.inbox;

/** SPEC §2: with nothing selected, 'Nenhuma conversa selecionada.' and the pending count. */
export function NothingSelected() {
  const { data } = useInboxCounter();
  const pending = data?.pending ?? 0;
  return (
    <Box component="section" data-testid="nothing-selected" sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 1, color: 'text.secondary' }}>
      <ForumOutlined sx={{ fontSize: 48 }} aria-hidden />
      <Typography>{t.noneSelected}</Typography>
      {data ? (
        <Typography role="status" data-testid="pending-count" sx={{ fontSize: 14 }}>
          {pending === 1 ? t.pendingOne : format(t.pendingMany, { count: pending })}
        </Typography>
      ) : null}
    </Box>
  );
}
