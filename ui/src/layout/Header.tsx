import { NavLink, Link as RouterLink } from 'react-router';
import AppBar from '@mui/material/AppBar';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { texts } from '../i18n/ptBR';
import { themeVar } from '../theme/colors';
import type { Session } from '../providers/session';
import { LiveIndicator } from './LiveIndicator';
import { useHasUnread } from '../inbox/queries';
import { useInboxRealtime } from '../inbox/useInboxRealtime';
import { UserMenu } from './UserMenu';

const t = texts.layout.nav;

const linkSx = {
  color: 'inherit',
  px: 1.5,
  fontWeight: 600,
  opacity: 0.85,
  '&.active': { opacity: 1, bgcolor: 'rgba(255,255,255,0.16)' },
  '&:focus-visible': { outline: '2px solid #fff' },
};

/** SPEC §2 app header: Mensagens (unread dot), Relatórios, Campanhas (level 6+), Configurações. */
export function Header({ session }: { session: Session }) {
  // Mounted here so live inbox updates, the sound and this dot work on every page of the app.
  useInboxRealtime();
  const hasUnread = useHasUnread();
  return (
    <AppBar position="static" elevation={0} color="primary">
      <Toolbar variant="dense" sx={{ gap: 1, minHeight: 56 }}>
        <Typography component={RouterLink} to="/inbox" variant="h6" fontWeight={800} sx={{ color: 'inherit', textDecoration: 'none', mr: 2 }}>
          {texts.brand}
        </Typography>
        <Box component="nav" aria-label={t.label} sx={{ display: 'flex', gap: 0.5, flex: 1, overflowX: 'auto' }}>
          <Button component={NavLink} to="/inbox" sx={linkSx}>
            <Badge
              variant="dot"
              invisible={!hasUnread}
              overlap="rectangular"
              slotProps={{ badge: { 'aria-label': t.unread, style: { backgroundColor: themeVar('mentionBadge') } } as object }}
            >
              {t.inbox}
            </Badge>
          </Button>
          <Button component={NavLink} to="/reports" sx={linkSx}>
            {t.reports}
          </Button>
          {session.workspace.accessLevel >= 6 ? (
            <Button component={NavLink} to="/campaigns" sx={linkSx}>
              {t.campaigns}
            </Button>
          ) : null}
          <Button component={NavLink} to="/settings" sx={linkSx}>
            {t.settings}
          </Button>
        </Box>
        <LiveIndicator />
        <UserMenu session={session} />
      </Toolbar>
    </AppBar>
  );
}
