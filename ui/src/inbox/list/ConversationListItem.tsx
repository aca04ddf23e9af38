import { memo } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { NameAvatar } from '../../common/NameAvatar';
import { themeVar } from '../../theme/colors';
import { shellTexts as texts } from '../../i18n/shellTexts';
import { ChannelIcon } from '../ChannelIcon';
import { listTime } from '../formatTime';
import { MessageType } from '../constants';
import { TagChips } from '../TagChips';
import type { Conversation } from '../types';

const t = texts.inbox;

export const optionId = (id: number) => `inbox-conversation-${id}`;

function preview(c: Conversation): string {
  const last = c.lastMessage;
  if (!last) return '';
  const text = last.text?.trim() || t.fileMessage;
  return last.type === MessageType.PRIVATE ? `${t.privateNotePrefix} ${text}` : text;
}

interface Props {
  conversation: Conversation;
  selected: boolean;
  active: boolean;
  onOpen: (id: number) => void;
}

/** One option of the conversation listbox: avatar with unread marker, name, time, channel, preview, tags. */
export const ConversationListItem = memo(function ConversationListItem({ conversation: c, selected, active, onOpen }: Props) {
  const unread = c.hasNewMessages && !selected;
  return (
    <Box
      role="option"
      id={optionId(c.id)}
      aria-selected={selected}
      data-conversation-id={c.id}
      data-active={active || undefined}
      data-unread={unread || undefined}
      onClick={() => onOpen(c.id)}
      sx={{
        display: 'flex',
        gap: 1.5,
        px: 1.5,
        py: 1.25,
        cursor: 'pointer',
        borderBottom: 1,
        borderColor: 'divider',
        borderLeft: '3px solid transparent',
        bgcolor: selected ? 'action.selected' : 'background.paper',
        ...(active ? { borderLeftColor: 'primary.main', bgcolor: selected ? 'action.selected' : 'action.hover' } : {}),
        '&:hover': { bgcolor: selected ? 'action.selected' : 'action.hover' },
      }}
    >
      <Box sx={{ position: 'relative', flexShrink: 0 }}>
        <NameAvatar name={c.name || '?'} avatar={c.avatar} size={40} />
        {unread ? (
          <Box
            component="span"
            aria-hidden
            sx={{ position: 'absolute', top: -1, right: -1, width: 12, height: 12, borderRadius: '50%', bgcolor: themeVar('mentionBadge'), border: '2px solid #fff' }}
          />
        ) : null}
      </Box>
      <Box sx={{ minWidth: 0, flex: 1 }}>
        <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1 }}>
          <Typography component="span" noWrap sx={{ flex: 1, fontSize: 14, fontWeight: unread ? 700 : 600 }}>
            {c.name || c.phone || c.email || c.identifier}
          </Typography>
          <Typography component="span" sx={{ fontSize: 12, color: unread ? 'primary.main' : 'text.secondary', fontWeight: unread ? 700 : 400, flexShrink: 0 }}>
            {listTime(c.lastMessageAt)}
          </Typography>
        </Box>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75, mt: 0.25 }}>
          <ChannelIcon platformId={c.platformId} size={15} />
          <Typography component="span" noWrap sx={{ fontSize: 13, color: unread ? 'text.primary' : 'text.secondary', fontWeight: unread ? 600 : 400 }}>
            {preview(c)}
          </Typography>
        </Box>
        {unread ? <Box component="span" sx={visuallyHidden}>{t.unreadLabel}</Box> : null}
        {c.isFinished ? <Box component="span" sx={visuallyHidden}>{t.resolvedLabel}</Box> : null}
        {c.tags.length > 0 ? <TagChips tags={c.tags} max={3} sx={{ mt: 0.75 }} /> : null}
      </Box>
    </Box>
  );
});

export const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;
