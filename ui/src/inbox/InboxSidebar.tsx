import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import Inbox from '@mui/icons-material/Inbox';
import Star from '@mui/icons-material/Star';
import Person from '@mui/icons-material/Person';
import Archive from '@mui/icons-material/Archive';
import Tune from '@mui/icons-material/Tune';
import MenuOpen from '@mui/icons-material/MenuOpen';
import MenuIcon from '@mui/icons-material/Menu';
import Refresh from '@mui/icons-material/Refresh';
import EditOutlined from '@mui/icons-material/EditOutlined';
import ViewKanbanOutlined from '@mui/icons-material/ViewKanbanOutlined';
import { shellTexts as texts } from '../i18n/shellTexts';
import { themeVar } from '../theme/colors';
import { inboxKeys } from './queryKeys';
import { useInboxCounter } from './queries';
import { ManageFiltersMenu, NewMessageDialog, SegmentBrowserDialog, SegmentEditorDialog } from './lazyParts';
import { useSubscribedSegments } from './segments/useSegments';
import { LazyPart, useOpenedOnce, whenIdle } from '../common/lazyLoad';
import { SegmentIcon } from './segments/SegmentIcon';
import { kanbanLabels } from '../kanban/labels';
import type { Counter } from './types';

const t = texts.inbox;

/** SPEC §2 built-in segments, in order. */
export const SEGMENTS = [
  { id: 'all', label: t.segments.all, Icon: Inbox },
  { id: 'starred', label: t.segments.starred, Icon: Star },
  { id: 'me', label: t.segments.me, Icon: Person },
  { id: 'archived', label: t.segments.archived, Icon: Archive },
] as const;

/** Sidebar item painted with the theme colours of the preferences (SPEC §3). */
export const sidebarItemSx = {
  display: 'flex',
  alignItems: 'center',
  gap: 1.5,
  px: 2,
  py: 1,
  mx: 1,
  borderRadius: 1,
  color: themeVar('text'),
  textDecoration: 'none',
  fontSize: 14,
  '&:hover': { bgcolor: themeVar('menuHoverBg'), color: themeVar('hoverItem') },
  '&.active': { bgcolor: themeVar('activeItem'), color: themeVar('activeItemText'), fontWeight: 600 },
  '&:focus-visible': { outline: `2px solid ${themeVar('activeItemText')}`, outlineOffset: -2 },
} as const;

const iconButtonSx = { color: themeVar('text'), '&:hover': { bgcolor: themeVar('menuHoverBg'), color: themeVar('hoverItem') } } as const;

function CountBadge({ count, collapsed }: { count: number; collapsed: boolean }) {
  if (count <= 0) return null;
  const text = count > 999 ? '999+' : String(count);
  return (
    <Box
      component="span"
      aria-hidden
      // The link's name says it to screen readers; the tooltip says what the number counts.
      title={`${text} ${count === 1 ? t.unreadOne : t.unreadMany}`}
      data-testid="unread-badge"
      sx={{
        ml: collapsed ? 0 : 'auto',
        position: collapsed ? 'absolute' : 'static',
        top: 2,
        right: 6,
        minWidth: 20,
        px: 0.75,
        borderRadius: 10,
        fontSize: 11,
        fontWeight: 700,
        lineHeight: '18px',
        textAlign: 'center',
        bgcolor: themeVar('mentionBadge'),
        color: '#fff',
      }}
    >
      {text}
    </Box>
  );
}

function SidebarLink({ to, label, count, active, collapsed, icon }: { to: string; label: string; count: number; active: boolean; collapsed: boolean; icon: ReactNode }) {
  const accessible = count > 0 ? `${label}, ${count} ${count === 1 ? t.unreadOne : t.unreadMany}` : label;
  const link = (
    <Box
      component={Link}
      to={to}
      className={active ? 'active' : undefined}
      aria-current={active ? 'page' : undefined}
      aria-label={accessible}
      data-segment-link={to}
      // The collapsed rail shows icons only: the native tooltip names them (MUI's Tooltip would pull Popper into the route).
      title={collapsed ? accessible : undefined}
      sx={{ ...sidebarItemSx, position: 'relative', justifyContent: collapsed ? 'center' : 'flex-start', px: collapsed ? 1 : 2 }}
    >
      {icon}
      {/* A long name ('Caixa de entrada', a saved filter's) wraps instead of ending in '…'. */}
      {collapsed ? null : <Box component="span" sx={{ minWidth: 0, overflowWrap: 'anywhere', lineHeight: 1.25 }}>{label}</Box>}
      <CountBadge count={count} collapsed={collapsed} />
    </Box>
  );
  return <li>{link}</li>;
}

const builtinCount = (counter: Counter | undefined, id: string) => (counter ? ((counter as unknown as Record<string, number>)[id] ?? 0) : 0);

/**
 * SPEC §2 inbox sidebar: the four segments and the subscribed saved filters with unread counts, and the
 * toggle, New message and Refresh buttons.
 */
export function InboxSidebar({ segment, collapsed, onToggle }: { segment: string; collapsed: boolean; onToggle: () => void }) {
  const qc = useQueryClient();
  const { data: counter } = useInboxCounter();
  const { data: saved = [] } = useSubscribedSegments();
  const [dialog, setDialog] = useState<'new-message' | 'segment-editor' | 'segment-browser' | null>(null);
  const [manageAnchor, setManageAnchor] = useState<HTMLElement | null>(null);
  const manageOpened = useOpenedOnce(Boolean(manageAnchor));
  useEffect(() => whenIdle(() => void ManageFiltersMenu.preload()), []);
  const close = () => setDialog(null);

  const buttons = (
    <>
      <IconButton title={collapsed ? t.expandSidebar : t.collapseSidebar} aria-label={collapsed ? t.expandSidebar : t.collapseSidebar} aria-expanded={!collapsed} size="small" onClick={onToggle} sx={iconButtonSx}>
        {collapsed ? <MenuIcon fontSize="small" /> : <MenuOpen fontSize="small" />}
      </IconButton>
      <IconButton title={t.newMessage} aria-label={t.newMessage} size="small" onClick={() => setDialog('new-message')} sx={iconButtonSx}>
        <EditOutlined fontSize="small" />
      </IconButton>
      <IconButton title={t.refresh} aria-label={t.refresh} size="small" onClick={() => void qc.invalidateQueries({ queryKey: inboxKeys.all })} sx={iconButtonSx}>
        <Refresh fontSize="small" />
      </IconButton>
      {/* The same conversations as a board (docs/kanban.md), with this segment as its filter. */}
      <IconButton component={Link} to={segment === 'new' ? '/inbox/kanban' : `/inbox/kanban?segment=${encodeURIComponent(segment)}`} title={kanbanLabels.boardHelp} aria-label={kanbanLabels.board} size="small" sx={iconButtonSx}>
        <ViewKanbanOutlined fontSize="small" />
      </IconButton>
    </>
  );

  return (
    <Box
      component="nav"
      aria-label={t.sidebarLabel}
      data-collapsed={collapsed}
      sx={{ width: collapsed ? 60 : 220, flexShrink: 0, bgcolor: themeVar('sidebarBg'), py: 1, overflowY: 'auto', overflowX: 'hidden', transition: 'width 150ms' }}
    >
      <Box sx={{ display: 'flex', flexDirection: collapsed ? 'column' : 'row', alignItems: 'center', gap: 0.5, px: 1, pb: 1 }}>{buttons}</Box>
      <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'flex', flexDirection: 'column', gap: 0.5 }}>
        {SEGMENTS.map(({ id, label, Icon }) => (
          <SidebarLink key={id} to={`/inbox/${id}`} label={label} count={builtinCount(counter, id)} active={segment === id} collapsed={collapsed} icon={<Icon fontSize="small" aria-hidden />} />
        ))}
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'center', px: collapsed ? 1 : 2, pt: 2, pb: 0.5, justifyContent: collapsed ? 'center' : 'space-between' }}>
        {collapsed ? null : (
          <Typography component="h2" variant="overline" sx={{ color: themeVar('text'), opacity: 0.8, lineHeight: 1.5 }}>
            {t.savedFilters}
          </Typography>
        )}
        <IconButton title={t.manageFilters} aria-label={t.manageFilters} aria-haspopup="menu" size="small" onClick={(e) => setManageAnchor(e.currentTarget)} sx={iconButtonSx}>
          <Tune fontSize="small" />
        </IconButton>
      </Box>
      <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'flex', flexDirection: 'column', gap: 0.5 }}>
        {saved.map((s) => (
          <SidebarLink
            key={s.id}
            to={`/inbox/${s.id}`}
            label={s.name}
            count={counter?.segments?.[String(s.id)] ?? 0}
            active={segment === String(s.id)}
            collapsed={collapsed}
            icon={<SegmentIcon icon={s.icon} size={20} />}
          />
        ))}
      </Box>
      {manageOpened ? (
        <LazyPart>
          <ManageFiltersMenu anchor={manageAnchor} onClose={() => setManageAnchor(null)} onNew={() => setDialog('segment-editor')} onBrowse={() => setDialog('segment-browser')} />
        </LazyPart>
      ) : null}
      <Suspense fallback={null}>
        {dialog === 'new-message' ? <NewMessageDialog open onClose={close} /> : null}
        {dialog === 'segment-editor' ? <SegmentEditorDialog open onClose={close} /> : null}
        {dialog === 'segment-browser' ? <SegmentBrowserDialog open onClose={close} /> : null}
      </Suspense>
    </Box>
  );
}
