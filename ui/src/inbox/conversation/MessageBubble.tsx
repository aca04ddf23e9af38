import { memo } from 'react';
import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import Reply from '@mui/icons-material/Reply';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import LockOutlined from '@mui/icons-material/LockOutlined';
import SmartToyOutlined from '@mui/icons-material/SmartToyOutlined';
import ErrorOutline from '@mui/icons-material/ErrorOutline';
import CampaignOutlined from '@mui/icons-material/CampaignOutlined';
import ScheduleSend from '@mui/icons-material/ScheduleSend';
import { format } from '../../i18n/format';
import { texts } from '../../i18n/ptBR';
import { MessageType } from '../constants';
import { clockTime } from '../formatTime';
import { MessageBody } from './MessageBody';
import { EmailHtmlFrame } from '../../settings/channels/email/EmailHtmlFrame';
import { StatusIcon } from './StatusIcon';
import { filesOf, messageExtras, messageText } from './content';
import type { Message } from '../types';
import { TipIconButton } from '../../common/TipIconButton';
import { scheduleLabels } from '../../schedules/labels';
import { CsatBubbleLine, csatAuthor } from '../../csat/CsatBubble';

const t = texts.inbox;

export function replySnippet(m: Pick<Message, 'content' | 'text'>): string {
  const files = filesOf(m.content);
  if (files.length > 0) return files.map((f) => f.fileName).join(', ');
  const text = messageText(m);
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

interface Props {
  message: Message;
  canReply: boolean;
  canDelete: boolean;
  onReply: (m: Message) => void;
  onDelete: (m: Message) => void;
}

/**
 * One message. Customer messages sit left, the team's right; private notes are yellow with a lock so they
 * are never mistaken for something the customer saw; system messages are a centred line.
 */
export const MessageBubble = memo(function MessageBubble({ message: m, canReply, canDelete, onReply, onDelete }: Props) {
  if (m.type === MessageType.SYSTEM) {
    return (
      <Box role="article" data-message-id={m.id} sx={{ display: 'flex', justifyContent: 'center', my: 1 }}>
        <Typography sx={{ fontSize: 12, color: 'text.secondary', bgcolor: 'action.hover', px: 1.5, py: 0.5, borderRadius: 4, maxWidth: '80%', textAlign: 'center' }}>
          {messageText(m)} · {clockTime(m.createdAt)}
        </Typography>
      </Box>
    );
  }
  const outgoing = m.sender !== 'customer';
  const isPrivate = m.type === MessageType.PRIVATE;
  const isBot = m.type === MessageType.BOT || m.sender === 'bot';
  // A failed message shows its error instead: the clock would read as 'on its way'.
  const showStatus = outgoing && !isPrivate && !m.isDeleted && m.deliveryState !== 'failed';
  const author = m.sender === 'customer' ? null : isBot ? (csatAuthor(m) ?? t.bot) : (m.Operator?.name ?? null);
  const subject = m.type === MessageType.EMAIL ? m.Call?.extraData?.subject : undefined;
  const emailHtml = m.type === MessageType.EMAIL && !m.isDeleted ? m.Call?.extraData?.html : undefined;
  const actions = !m.isDeleted && !m.pending && (canReply || canDelete);
  const edited = !m.isDeleted && m.Call?.extraData?.edited === true;
  const editedAt = m.Call?.extraData?.editedAt;
  const campaign = m.sender === 'customer' ? m.Call?.extraData?.campaign : undefined;
  const scheduled = m.sender === 'operator' ? m.Call?.extraData?.scheduled : undefined;
  const extras = m.isDeleted ? {} : messageExtras(m);
  const reply = m.sender === 'customer' ? extras.buttonReply : undefined;

  return (
    <Box
      role="article"
      aria-label={isPrivate ? t.privateNote : undefined}
      data-message-id={m.id}
      data-type={m.type}
      data-pending={m.pending || undefined}
      sx={{ display: 'flex', justifyContent: outgoing ? 'flex-end' : 'flex-start', my: 0.5, px: 2, '&:hover .message-actions, &:focus-within .message-actions': { opacity: 1 } }}
    >
      {actions && outgoing ? <Actions m={m} canReply={canReply} canDelete={canDelete} onReply={onReply} onDelete={onDelete} /> : null}
      <Box
        sx={{
          maxWidth: '70%',
          minWidth: 80,
          px: 1.5,
          py: 1,
          borderRadius: 2,
          borderTopRightRadius: outgoing ? 4 : undefined,
          borderTopLeftRadius: outgoing ? undefined : 4,
          bgcolor: isPrivate ? '#fff4d6' : outgoing ? '#dcf3ee' : 'background.paper',
          border: isPrivate ? '1px dashed #e0a800' : '1px solid',
          borderColor: isPrivate ? '#e0a800' : 'divider',
          opacity: m.pending ? 0.75 : 1,
        }}
      >
        {author || isPrivate ? (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, mb: 0.25, fontSize: 12, fontWeight: 700, color: isPrivate ? '#8a6100' : 'primary.dark' }}>
            {isPrivate ? <LockOutlined sx={{ fontSize: 14 }} aria-hidden /> : isBot ? <SmartToyOutlined sx={{ fontSize: 14 }} aria-hidden /> : null}
            <span>{[author, isPrivate ? t.privateNote : null].filter(Boolean).join(' · ')}</span>
          </Box>
        ) : null}
        {campaign?.name ? (
          <Box data-testid="message-campaign" sx={{ display: 'flex', alignItems: 'center', gap: 0.5, mb: 0.25, fontSize: 12, color: 'text.secondary' }}>
            <CampaignOutlined sx={{ fontSize: 14 }} aria-hidden />
            <span>{format(t.campaignReply, { name: campaign.name })}</span>
          </Box>
        ) : null}
        {scheduled?.by ? (
          <Box data-testid="message-scheduled" sx={{ display: 'flex', alignItems: 'center', gap: 0.5, mb: 0.25, fontSize: 12, color: 'text.secondary' }}>
            <ScheduleSend sx={{ fontSize: 14 }} aria-hidden />
            <span>{format(scheduleLabels.bubble, { name: scheduled.by.name })}</span>
          </Box>
        ) : null}
        {subject ? <Typography sx={{ fontSize: 13, fontWeight: 700, mb: 0.5 }}>{subject}</Typography> : null}
        {m.replyTo && !m.isDeleted ? (
          <Box sx={{ borderLeft: '3px solid', borderColor: 'primary.main', bgcolor: 'rgba(0,0,0,0.05)', px: 1, py: 0.5, mb: 0.5, borderRadius: 1, fontSize: 12, color: 'text.secondary' }}>
            {replySnippet(m.replyTo)}
          </Box>
        ) : null}
        {typeof emailHtml === 'string' ? <EmailHtmlFrame html={emailHtml} title={subject || 'E-mail'} messageId={m.id} /> : null}
        {typeof emailHtml !== 'string' || filesOf(m.content).length > 0 ? <MessageBody message={m} /> : null}
        {m.isDeleted ? null : <CsatBubbleLine message={m} />}
        {reply ? (
          <Box data-testid="message-button-reply" sx={{ mt: 0.25, fontSize: 12, color: 'text.secondary', overflowWrap: 'anywhere' }}>
            {[reply.kind === 'list_reply' ? t.listReply : t.buttonReply, reply.id, reply.description].filter(Boolean).join(' · ')}
          </Box>
        ) : null}
        {outgoing && m.deliveryState === 'failed' && !m.isDeleted ? (
          <Box role="status" data-testid="delivery-error" sx={{ display: 'flex', alignItems: 'center', gap: 0.5, mt: 0.5, fontSize: 12, color: 'error.main' }}>
            <ErrorOutline sx={{ fontSize: 14 }} aria-hidden />
            <span>{m.deliveryError?.startsWith(`${t.notSent}:`) ? m.deliveryError : [t.deliveryFailed, m.deliveryError].filter(Boolean).join(': ')}</span>
          </Box>
        ) : null}
        {extras.reaction ? (
          <Box
            data-testid="message-reaction"
            role="img"
            aria-label={format(t.customerReaction, { emoji: extras.reaction })}
            sx={{ display: 'inline-block', mt: 0.5, px: 0.75, borderRadius: 3, bgcolor: 'background.paper', border: '1px solid', borderColor: 'divider', fontSize: 14, lineHeight: '22px' }}
          >
            {extras.reaction}
          </Box>
        ) : null}
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', alignItems: 'center', gap: 0.5, mt: 0.25, fontSize: 11, color: 'text.secondary' }}>
          {edited ? (
            <Tooltip title={editedAt ? format(t.editedAt, { time: clockTime(editedAt) }) : ''}>
              <span data-testid="message-edited">{t.edited}</span>
            </Tooltip>
          ) : null}
          <span>{clockTime(m.createdAt)}</span>
          {showStatus ? <StatusIcon status={m.status} pending={m.pending} /> : null}
        </Box>
      </Box>
      {actions && !outgoing ? <Actions m={m} canReply={canReply} canDelete={canDelete} onReply={onReply} onDelete={onDelete} /> : null}
    </Box>
  );
});

function Actions({ m, canReply, canDelete, onReply, onDelete }: { m: Message } & Omit<Props, 'message'>) {
  return (
    <Box className="message-actions" sx={{ display: 'flex', alignItems: 'center', opacity: 0, transition: 'opacity 120ms', mx: 0.5 }}>
      {canReply ? (
        <TipIconButton title={t.reply} size="small" onClick={() => onReply(m)}>
          <Reply fontSize="small" />
        </TipIconButton>
      ) : null}
      {canDelete ? (
        <TipIconButton title={t.deleteMessage} size="small" onClick={() => onDelete(m)}>
          <DeleteOutline fontSize="small" />
        </TipIconButton>
      ) : null}
    </Box>
  );
}
