import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import ForumOutlined from '@mui/icons-material/ForumOutlined';
import { texts } from '../i18n/ptBR';
import { InboxSidebar } from './InboxSidebar';

const t = texts.inbox;

/**
 * /inbox/:segment/:id? — the three panes of the inbox (segments, conversation list, conversation).
 * The conversations themselves arrive with the inbox issue; until then the panes show their empty states.
 */
export function InboxPage() {
  return (
    <Box sx={{ display: 'flex', height: '100%', minHeight: 0 }} data-testid="inbox">
      <InboxSidebar />
      <Box component="section" aria-label={t.listLabel} sx={{ width: 350, flexShrink: 0, borderRight: 1, borderColor: 'divider', bgcolor: 'background.paper', display: 'flex', flexDirection: 'column' }}>
        <Typography variant="subtitle1" component="h2" fontWeight={700} sx={{ px: 2, py: 1.5, borderBottom: 1, borderColor: 'divider' }}>
          {t.listLabel}
        </Typography>
        <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center' }}>
          {t.empty}
        </Typography>
      </Box>
      <Box component="section" sx={{ flex: 1, display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 1, color: 'text.secondary' }}>
        <ForumOutlined sx={{ fontSize: 48 }} aria-hidden />
        <Typography>{t.noneSelected}</Typography>
      </Box>
    </Box>
  );
}
