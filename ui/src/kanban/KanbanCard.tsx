import { memo, type DragEvent, type KeyboardEvent, type MouseEvent } from 'react';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import MoreVert from '@mui/icons-material/MoreVert';
import HourglassBottom from '@mui/icons-material/HourglassBottom';
import PersonOutline from '@mui/icons-material/PersonOutline';
import { NameAvatar } from '../common/NameAvatar';
import { format } from '../i18n/format';
import { ChannelIcon } from '../inbox/ChannelIcon';
import { MessageType } from '../inbox/constants';
import { listTime } from '../inbox/formatTime';
import { TagChips } from '../inbox/TagChips';
import { themeVar } from '../theme/colors';
import type { Conversation } from '../inbox/types';
import { kanbanTexts } from './texts';
import { waitingMs } from './board';

const t = kanbanTexts;

export const cardId = (column: string, id: number) => `kanban-card-${column}-${id}`;

/** "12 min", "3 h 5 min", "2 d". */
export function duration(ms: number): string {
  const minutes = Math.max(1, Math.floor(ms / 60_000));
  if (minutes < 60) return format(t.duration.minutes, { n: minutes });
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? format(t.duration.hoursMinutes, { h: hours, m: minutes % 60 }) : format(t.duration.hours, { n: hours });
  return format(t.duration.days, { n: Math.floor(hours / 24) });
}

function preview(c: Conversation): string {
  const last = c.lastMessage;
  if (!last) return '';
  const text = last.text?.trim() || t.card.fileMessage;
  return last.type === MessageType.PRIVATE ? `${t.card.privateNote} ${text}` : text;
}

interface Props {
  conversation: Conversation;
  column: string;
  assignee: string | undefined;
  now: number;
  open: boolean;
  onOpen(id: number): void;
  onMoveMenu(anchor: HTMLElement, conversation: Conversation, from: string): void;
  onKeyDown(e: KeyboardEvent<HTMLElement>, conversation: Conversation, column: string): void;
  onDragStart(conversation: Conversation, column: string): void;
  onDragEnd(): void;
}

/**
 * One conversation on the board: name, channel, last message, waiting time, assignee and tags. Dragged
 * with the mouse (native drag and drop), or with the keyboard: focused, M opens 'Mover para…', Alt + ←/→
 * moves to the next column, Enter opens the chat beside the board.
 */
export const KanbanCard = memo(function KanbanCard({ conversation: c, column, assignee, now, open, onOpen, onMoveMenu, onKeyDown, onDragStart, onDragEnd }: Props) {
  const waiting = waitingMs(c, now);
  const unread = c.hasNewMessages && !c.isFinished;
  const name = c.name || c.phone || c.email || c.identifier;
  const owner = c.operatorId === null ? t.card.unassigned : (assignee ?? '…');
  return (
    <Box
      component="article"
      id={cardId(column, c.id)}
      tabIndex={0}
      draggable
      data-kanban-card={c.id}
      data-unread={unread || undefined}
      data-column={column}
      aria-current={open || undefined}
      aria-label={name}
      aria-describedby="kanban-keyboard-help"
      onClick={() => onOpen(c.id)}
      onKeyDown={(e) => onKeyDown(e, c, column)}
      onDragStart={(e: DragEvent<HTMLElement>) => {
        e.dataTransfer.effectAllowed = 'move';
        e.dataTransfer.setData('text/plain', String(c.id));
        onDragStart(c, column);
      }}
      onDragEnd={onDragEnd}
      sx={{
        position: 'relative',
        bgcolor: 'background.paper',
        border: 1,
        borderColor: open ? 'primary.main' : 'divider',
        boxShadow: open ? 2 : 0,
        borderRadius: 1.5,
        p: 1.25,
        cursor: 'grab',
        userSelect: 'none',
        '&:hover': { borderColor: 'primary.light' },
        '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: 1 },
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Box sx={{ position: 'relative', flexShrink: 0 }}>
          <NameAvatar name={c.name || '?'} avatar={c.avatar} size={28} />
          {unread ? <Box component="span" aria-label={t.card.unread} sx={{ position: 'absolute', top: -2, right: -2, width: 10, height: 10, borderRadius: '50%', bgcolor: themeVar('mentionBadge'), border: '2px solid #fff' }} /> : null}
        </Box>
        <Typography component="h3" noWrap sx={{ flex: 1, minWidth: 0, fontSize: 14, fontWeight: unread ? 700 : 600 }}>
          {name}
        </Typography>
        <IconButton
          size="small"
          aria-label={t.card.moveTo}
          title={t.card.moveHelp}
          aria-haspopup="menu"
          onClick={(e: MouseEvent<HTMLElement>) => {
            e.stopPropagation();
            onMoveMenu(e.currentTarget.closest('article') ?? e.currentTarget, c, column);
          }}
          sx={{ m: -0.5 }}
        >
          <MoreVert fontSize="small" />
        </IconButton>
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75, mt: 0.5, color: 'text.secondary' }}>
        <ChannelIcon platformId={c.platformId} size={14} />
        <Typography component="span" noWrap sx={{ fontSize: 12, flex: 1, minWidth: 0 }}>
          {c.channelName}
        </Typography>
        <Typography component="span" sx={{ fontSize: 12, flexShrink: 0 }}>
          {listTime(c.lastMessageAt)}
        </Typography>
      </Box>
      <Typography
        component="p"
        sx={{ fontSize: 13, mt: 0.5, color: unread ? 'text.primary' : 'text.secondary', display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden', overflowWrap: 'anywhere' }}
      >
        {preview(c)}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mt: 0.75, fontSize: 12 }}>
        {waiting !== undefined ? (
          <Box component="span" data-waiting title={format(t.card.waitingLabel, { time: duration(waiting) })} sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.25, color: waiting > 15 * 60_000 ? 'error.main' : 'warning.dark', fontWeight: 600 }}>
            <HourglassBottom sx={{ fontSize: 14 }} aria-hidden />
            {format(t.card.waitingFor, { time: duration(waiting) })}
          </Box>
        ) : null}
        <Box component="span" data-assignee title={c.operatorId === null ? owner : format(t.card.assignee, { name: owner })} sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.25, color: 'text.secondary', minWidth: 0, maxWidth: '100%' }}>
          <PersonOutline sx={{ fontSize: 14 }} aria-hidden />
          <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
            {owner}
          </Box>
        </Box>
        {c.isFinished ? (
          <Box component="span" sx={{ color: 'success.main', fontWeight: 600 }}>
            {t.card.resolved}
          </Box>
        ) : null}
      </Box>
      {c.tags.length > 0 ? <TagChips tags={c.tags} max={3} sx={{ mt: 0.75 }} /> : null}
    </Box>
  );
});
