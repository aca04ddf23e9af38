import { NavLink } from 'react-router';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import ForumOutlined from '@mui/icons-material/ForumOutlined';
import { format } from '../i18n/format';
import { themeVar } from '../theme/colors';
import { teamLabels } from './labels';

/**
 * The header's way into the team chat (/equipe, docs/team-chat.md) from 900 px: an icon with the count of
 * colleagues' messages not read yet (the header keeps the chat live with useTeamRealtime and passes it).
 */
export function TeamChatButton({ unread }: { unread: number }) {
  const label = unread === 0 ? teamLabels.nav : unread === 1 ? teamLabels.navOneUnread : format(teamLabels.navUnread, { count: unread });
  return (
    <IconButton
      component={NavLink}
      to="/equipe"
      color="inherit"
      size="small"
      aria-label={label}
      title={label}
      data-testid="team-chat-button"
      data-unread={unread}
      sx={{ flexShrink: 0, p: 0.75, '&.active': { bgcolor: 'rgba(255,255,255,0.16)' }, '&:focus-visible': { outline: '2px solid #fff' } }}
    >
      <Badge
        badgeContent={unread}
        max={99}
        overlap="circular"
        slotProps={{ badge: { 'aria-hidden': true, style: { backgroundColor: themeVar('mentionBadge'), color: '#fff' } } as object }}
      >
        <ForumOutlined fontSize="small" />
      </Badge>
    </IconButton>
  );
}
