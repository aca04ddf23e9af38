import { useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import EditOutlined from '@mui/icons-material/EditOutlined';
import InsertDriveFileOutlined from '@mui/icons-material/InsertDriveFileOutlined';
import { NameAvatar } from '../common/NameAvatar';
import { TipIconButton } from '../common/TipIconButton';
import { LinkifiedText } from '../inbox/conversation/MessageBody';
import { fileHref } from '../inbox/conversation/content';
import { clockTime, fileSize } from '../inbox/formatTime';
import { conversationPath } from '../search/searchApi';
import { format } from '../i18n/format';
import { MENTION_PATTERN } from '../../../api/teamChat/schema';
import { teamTexts as t } from './texts';
import type { TeamMessage } from './teamApi';

/** The text with its `#protocolo` mentions as links to the conversations this reader may open; the rest stays text. */
export function MessageText({ message }: { message: TeamMessage }) {
  const byProtocol = new Map((message.mentions ?? []).map((m) => [m.protocol, m]));
  const parts: ReactNode[] = [];
  let at = 0;
  for (const match of message.body.matchAll(MENTION_PATTERN)) {
    const mention = byProtocol.get(Number(match[1]));
    if (!mention) continue;
    if (match.index > at) parts.push(<LinkifiedText key={`t${at}`} text={message.body.slice(at, match.index)} />);
    parts.push(
      <Link
        key={`m${match.index}`}
        component={RouterLink}
        to={conversationPath({ id: mention.conversationId, isFinished: mention.isFinished })}
        title={mention.contactName ?? undefined}
        aria-label={format(t.mention, { protocol: mention.protocol })}
        sx={{ fontWeight: 600 }}
      >
        {match[0]}
      </Link>,
    );
    at = match.index + match[0].length;
  }
  if (at < message.body.length) parts.push(<LinkifiedText key={`t${at}`} text={message.body.slice(at)} />);
  return <>{parts}</>;
}

function FileView({ file }: { file: NonNullable<TeamMessage['file']> }) {
  const url = fileHref(file.url);
  if (!url) return null;
  if (file.mime.startsWith('image/')) {
    return (
      <Link href={url} target="_blank" rel="noopener noreferrer" sx={{ display: 'block', mt: 0.5 }}>
        <Box component="img" src={url} alt={file.fileName} loading="lazy" sx={{ display: 'block', maxWidth: 240, maxHeight: 240, borderRadius: 1, objectFit: 'cover' }} />
      </Link>
    );
  }
  return (
    <Link href={url} download={file.fileName} underline="none" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, px: 1, py: 0.5, mt: 0.5, borderRadius: 1, bgcolor: 'action.hover', color: 'inherit', maxWidth: '100%' }}>
      <InsertDriveFileOutlined fontSize="small" aria-hidden />
      <Box component="span" sx={{ minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
        {file.fileName}
      </Box>
      <Box component="span" sx={{ fontSize: 12, opacity: 0.75, flexShrink: 0 }}>
        {fileSize(file.size)}
      </Box>
    </Link>
  );
}

/**
 * One message: author, time, text with its mention links, file; 'editada' once edited, 'Mensagem apagada'
 * once deleted. Its author may edit or delete it until `editableUntil` (the server decides; past it the
 * buttons go away at the next render).
 */
export function MessageItem({ message, me, now, highlighted, onSave, onDelete }: { message: TeamMessage; me: number; now: number; highlighted?: boolean; onSave: (body: string) => Promise<boolean>; onDelete: () => void }) {
  const [editing, setEditing] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const mine = message.author?.id === me;
  const changeable = mine && !message.isDeleted && Date.parse(message.editableUntil) > now;
  const save = async () => {
    if (editing === null) return;
    setSaving(true);
    const ok = await onSave(editing);
    setSaving(false);
    if (ok) setEditing(null);
  };
  return (
    <Box
      component="li"
      data-testid="team-message"
      data-message-id={message.id}
      sx={{
        display: 'flex',
        gap: 1,
        px: { xs: 1.5, sm: 2 },
        py: 0.75,
        listStyle: 'none',
        bgcolor: highlighted ? 'warning.light' : undefined,
        transition: 'background-color .3s',
        '&:hover .team-actions, &:focus-within .team-actions': { opacity: 1 },
      }}
    >
      <NameAvatar name={message.author?.name ?? '?'} avatar={message.author?.avatar} size={32} sx={{ mt: 0.25, flexShrink: 0 }} />
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1, flexWrap: 'wrap' }}>
          <Typography component="span" variant="body2" fontWeight={700}>
            {mine ? t.you : (message.author?.name ?? '—')}
          </Typography>
          <Typography component="time" variant="caption" color="text.secondary" dateTime={message.createdAt}>
            {clockTime(message.createdAt)}
          </Typography>
          {message.editedAt && !message.isDeleted ? (
            <Typography component="span" variant="caption" color="text.secondary">
              ({t.edited})
            </Typography>
          ) : null}
          {changeable && editing === null ? (
            <Box className="team-actions" sx={{ ml: 'auto', display: 'flex', opacity: { xs: 1, md: 0.35 } }}>
              <TipIconButton title={t.edit} size="small" onClick={() => setEditing(message.body)}>
                <EditOutlined fontSize="small" />
              </TipIconButton>
              <TipIconButton title={t.remove} size="small" onClick={onDelete}>
                <DeleteOutline fontSize="small" />
              </TipIconButton>
            </Box>
          ) : null}
        </Box>
        {message.isDeleted ? (
          <Typography variant="body2" color="text.secondary" fontStyle="italic">
            {t.deleted}
          </Typography>
        ) : editing !== null ? (
          <Box
            component="form"
            onSubmit={(e) => {
              e.preventDefault();
              void save();
            }}
            sx={{ mt: 0.5 }}
          >
            <TextField
              value={editing}
              onChange={(e) => setEditing(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Escape') setEditing(null);
                if (e.key === 'Enter' && !e.shiftKey) {
                  e.preventDefault();
                  void save();
                }
              }}
              multiline
              maxRows={8}
              fullWidth
              size="small"
              autoFocus
              slotProps={{ htmlInput: { 'aria-label': t.edit, maxLength: 4000 } }}
            />
            <Box sx={{ display: 'flex', gap: 1, mt: 0.5 }}>
              <Button type="submit" size="small" variant="contained" disabled={saving}>
                {t.save}
              </Button>
              <Button size="small" onClick={() => setEditing(null)}>
                {t.cancel}
              </Button>
            </Box>
          </Box>
        ) : (
          <>
            {message.body ? (
              <Typography variant="body2" component="div" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                <MessageText message={message} />
              </Typography>
            ) : null}
            {message.file ? <FileView file={message.file} /> : null}
          </>
        )}
      </Box>
    </Box>
  );
}
