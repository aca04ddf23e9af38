import { NavLink } from 'react-router';
import Box from '@mui/material/Box';
import Inbox from '@mui/icons-material/Inbox';
import Star from '@mui/icons-material/Star';
import Person from '@mui/icons-material/Person';
import Archive from '@mui/icons-material/Archive';
import { texts } from '../i18n/ptBR';
import { themeVar } from '../theme/colors';

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

export function InboxSidebar() {
  return (
    <Box component="nav" aria-label={t.sidebarLabel} sx={{ width: 220, flexShrink: 0, bgcolor: themeVar('sidebarBg'), py: 1.5, overflowY: 'auto' }}>
      <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'flex', flexDirection: 'column', gap: 0.5 }}>
        {SEGMENTS.map(({ id, label, Icon }) => (
          <li key={id}>
            <Box component={NavLink} to={`/inbox/${id}`} sx={sidebarItemSx}>
              <Icon fontSize="small" aria-hidden />
              <span>{label}</span>
            </Box>
          </li>
        ))}
      </Box>
    </Box>
  );
}
