import { useEffect, useState } from 'react';
import { NavLink, Link as RouterLink, useLocation } from 'react-router';
import AppBar from '@mui/material/AppBar';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import MenuIcon from '@mui/icons-material/Menu';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import BarChartOutlined from '@mui/icons-material/BarChartOutlined';
import CampaignOutlined from '@mui/icons-material/CampaignOutlined';
import ChatBubbleOutline from '@mui/icons-material/ChatBubbleOutline';
import ContactsOutlined from '@mui/icons-material/ContactsOutlined';
import ForumOutlined from '@mui/icons-material/ForumOutlined';
import ScheduleSendOutlined from '@mui/icons-material/ScheduleSendOutlined';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import type { ReactNode } from 'react';
import { shellTexts as texts } from '../i18n/shellTexts';
import { themeVar } from '../theme/colors';
import type { Session } from '../providers/session';
import { LiveIndicator } from './LiveIndicator';
import { useHasUnread } from '../inbox/queries';
import { useInboxRealtime } from '../inbox/useInboxRealtime';
import { UserMenu } from './UserMenu';
import { HeaderSearch } from '../search/HeaderSearch';
import { scheduleLabels } from '../schedules/labels';
import { LazyPart, preloadableLazy, useOpenedOnce, whenIdle } from '../common/lazyLoad';
import { TeamChatButton } from '../teamChat/TeamChatButton';
import { useTeamRealtime } from '../teamChat/useTeamRealtime';
import { teamLabels } from '../teamChat/labels';
import type { Area } from './HeaderMenus';

const t = texts.layout.nav;
// The phone's areas menu (HeaderMenus.tsx) loads when the browser is idle after the first paint.
const AreasMenuList = preloadableLazy(() => import('./HeaderMenus').then((m) => m.AreasMenuList));

/**
 * The areas' words fit beside the brand, the search, the availability and the user menu from 1280 px on; below
 * that each area is an icon with its word as a tooltip, the word kept for screen readers (below 900 px the areas
 * other than Mensagens fold into one menu).
 */
const WORDS_FIT = '@media (min-width:1280px)';

const linkSx = {
  color: 'inherit',
  px: 1,
  minWidth: 44,
  [WORDS_FIT]: { px: 1.5, minWidth: 64 },
  flexShrink: 0,
  whiteSpace: 'nowrap',
  fontWeight: 600,
  opacity: 0.85,
  '&.active': { opacity: 1, bgcolor: 'rgba(255,255,255,0.16)' },
  '&:focus-visible': { outline: '2px solid #fff' },
};

const hiddenBelowWords = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  [WORDS_FIT]: { position: 'static', width: 'auto', height: 'auto', overflow: 'visible', clip: 'auto' },
} as const;

function NavItem({ to, icon, label, dot, wordsFit }: { to: string; icon: ReactNode; label: string; dot?: { visible: boolean; label: string }; wordsFit: boolean }) {
  const content = (
    <>
      <Box component="span" aria-hidden sx={{ display: 'inline-flex', [WORDS_FIT]: { display: 'none' } }}>
        {icon}
      </Box>
      <Box component="span" sx={hiddenBelowWords}>
        {label}
      </Box>
    </>
  );
  // A native tooltip names the icon for the mouse where the word is hidden (MUI's Tooltip would bring Popper into the first load).
  return (
    <Button component={NavLink} to={to} sx={linkSx} title={wordsFit ? undefined : label}>
      {dot ? (
        <Badge
          variant="dot"
          invisible={!dot.visible}
          overlap="rectangular"
          slotProps={{ badge: { 'aria-label': dot.label, style: { backgroundColor: themeVar('mentionBadge') } } as object }}
        >
          {content}
        </Badge>
      ) : (
        content
      )}
    </Button>
  );
}

/**
 * Below 900 px (a phone, a small tablet) the areas other than Mensagens fold into one menu (issue 28: the header collapsed into a menu):
 * Mensagens stays one tap away with its unread dot; the menu lists the others with their names.
 */
function AreasMenu({ areas }: { areas: Area[] }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  // An area with unread items (the team chat) marks the button with a dot; the menu says how many.
  const unread = areas.some((a) => (a.badge ?? 0) > 0);
  const { pathname } = useLocation();
  const current = areas.find((a) => pathname.startsWith(a.to));
  const opened = useOpenedOnce(Boolean(anchor));
  useEffect(() => whenIdle(() => void AreasMenuList.preload()), []);
  return (
    <>
      <IconButton
        color="inherit"
        aria-label={t.more}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(e) => setAnchor(e.currentTarget)}
        sx={{ bgcolor: current ? 'rgba(255,255,255,0.16)' : undefined }}
        data-unread={unread ? 'true' : undefined}
      >
        <Badge variant="dot" invisible={!unread} overlap="circular" slotProps={{ badge: { style: { backgroundColor: themeVar('mentionBadge') } } as object }}>
          <MenuIcon />
        </Badge>
      </IconButton>
      {opened ? (
        <LazyPart>
          <AreasMenuList anchor={anchor} onClose={() => setAnchor(null)} areas={areas} current={current} />
        </LazyPart>
      ) : null}
    </>
  );
}

/** SPEC §2 app header: Mensagens (unread dot), Contatos (docs/contacts.md), Relatórios, Campanhas (level 6+), Configurações. */
export function Header({ session }: { session: Session }) {
  // Mounted here so live inbox updates, the sound and this dot work on every page of the app.
  useInboxRealtime();
  const hasUnread = useHasUnread();
  // The team chat's live updates, sound and badge, on every page too (docs/team-chat.md).
  const teamUnread = useTeamRealtime();
  // Six icons, the search, the availability and the user menu need about 800 px: below the md breakpoint the areas fold into one menu.
  const folded = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'));
  // One query for every area's word (the CSS hides it; this names the icon by a native tooltip where it is hidden).
  const wordsFit = useMediaQuery(WORDS_FIT.replace('@media ', ''));
  const areas: Area[] = [
    // Below 900 px the team chat folds into the menu with the other areas; above, it is an icon beside the search.
    ...(folded ? [{ to: '/equipe', icon: <ForumOutlined fontSize="small" />, label: teamLabels.nav, badge: teamUnread }] : []),
    { to: '/contacts', icon: <ContactsOutlined fontSize="small" />, label: t.contacts },
    { to: '/schedules', icon: <ScheduleSendOutlined fontSize="small" />, label: scheduleLabels.nav },
    { to: '/reports', icon: <BarChartOutlined fontSize="small" />, label: t.reports },
    ...(session.workspace.accessLevel >= 6 ? [{ to: '/campaigns', icon: <CampaignOutlined fontSize="small" />, label: t.campaigns }] : []),
    { to: '/settings', icon: <SettingsOutlined fontSize="small" />, label: t.settings },
  ];
  return (
    <AppBar position="static" elevation={0} color="primary">
      <Toolbar variant="dense" sx={{ gap: { xs: 0.5, sm: 1 }, minHeight: 56, px: { xs: 1, sm: 2 } }}>
        <Typography component={RouterLink} to="/inbox" variant="h6" fontWeight={800} sx={{ color: 'inherit', textDecoration: 'none', mr: { xs: 0, sm: 2 }, fontSize: { xs: '1.125rem', sm: '1.25rem' }, flexShrink: 0 }}>
          {texts.brand}
        </Typography>
        <Box component="nav" aria-label={t.label} sx={{ display: 'flex', gap: 0.5, flex: 1, minWidth: 0 }}>
          <NavItem to="/inbox" icon={<ChatBubbleOutline fontSize="small" />} label={t.inbox} dot={{ visible: hasUnread, label: t.unread }} wordsFit={wordsFit} />
          {folded ? <AreasMenu areas={areas} /> : areas.map((a) => <NavItem key={a.to} to={a.to} icon={a.icon} label={a.label} wordsFit={wordsFit} />)}
        </Box>
        <HeaderSearch />
        {folded ? (
          <LiveIndicator />
        ) : (
          <Box sx={{ position: 'relative', display: 'flex', flexShrink: 0 }}>
            <TeamChatButton unread={teamUnread} />
            <LiveIndicator corner />
          </Box>
        )}
        <UserMenu session={session} />
      </Toolbar>
    </AppBar>
  );
}
