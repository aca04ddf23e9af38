import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Confirm, useNotify } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormHelperText from '@mui/material/FormHelperText';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { NameAvatar } from '../common/NameAvatar';
import { fetchAgents } from '../inbox/inboxApi';
import { HttpError } from '../providers/httpClient';
import { failureToasts } from '../forms/serverErrors';
import { format } from '../i18n/format';
import { TeamRoomCreateSchema } from '../../../api/teamChat/schema';
import { teamTexts as t } from './texts';
import type { TeamRoom, TeamRoomDetail } from './teamApi';

interface Colleague {
  id: number;
  name: string;
  avatar: string | null;
  isActive?: boolean;
  verificationLevel?: number;
}

/** Colleagues one may write to or put in a room: active members who accepted their invitation. */
function useColleagues(open: boolean) {
  return useQuery({
    queryKey: ['team', 'colleagues'],
    queryFn: async ({ signal }) => ((await fetchAgents(signal)) as Colleague[]).filter((a) => a.isActive !== false && a.verificationLevel !== 0),
    enabled: open,
    staleTime: 60_000,
  });
}

/** 'Mensagem direta': pick a colleague; their conversation opens (created the first time). */
export function DirectDialog({ open, me, onClose, onOpen }: { open: boolean; me: number; onClose: () => void; onOpen: (operatorId: number) => void }) {
  const colleagues = useColleagues(open);
  const [filter, setFilter] = useState('');
  const fullScreen = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const list = (colleagues.data ?? []).filter((c) => c.id !== me && c.name.toLowerCase().includes(filter.trim().toLowerCase()));
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" fullScreen={fullScreen} aria-labelledby="team-direct-title">
      <DialogTitle id="team-direct-title">{t.directDialog.title}</DialogTitle>
      <DialogContent>
        <TextField value={filter} onChange={(e) => setFilter(e.target.value)} label={t.directDialog.filter} size="small" fullWidth autoFocus sx={{ mt: 1 }} />
        <List dense>
          {colleagues.isSuccess && !list.length ? (
            <Typography variant="body2" color="text.secondary" sx={{ p: 1 }}>
              {t.directDialog.none}
            </Typography>
          ) : null}
          {list.map((c) => (
            <ListItemButton key={c.id} onClick={() => onOpen(c.id)} sx={{ minHeight: 48 }}>
              <ListItemIcon>
                <NameAvatar name={c.name} avatar={c.avatar} size={28} />
              </ListItemIcon>
              <ListItemText primary={c.name} />
            </ListItemButton>
          ))}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t.cancel}</Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * 'Nova sala' and 'Editar sala' (level 6+): name and participants; editing also deletes. The form checks what
 * the api checks (TeamRoomCreateSchema); a refusal of the server lands on its field.
 */
export function RoomDialog({
  open,
  me,
  room,
  onClose,
  onSave,
  onDelete,
}: {
  open: boolean;
  me: number;
  room?: TeamRoomDetail;
  onClose: () => void;
  onSave: (input: { name: string; members: number[] }) => Promise<TeamRoom>;
  onDelete?: () => Promise<void>;
}) {
  const notify = useNotify();
  const colleagues = useColleagues(open);
  const fullScreen = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const [name, setName] = useState(room?.name ?? '');
  const [members, setMembers] = useState<number[]>(room ? room.members.map((m) => m.id) : [me]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const toggle = (id: number) => setMembers((list) => (list.includes(id) ? list.filter((x) => x !== id) : [...list, id]));
  const submit = async () => {
    const parsed = TeamRoomCreateSchema.safeParse({ name, members });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setSaving(true);
    try {
      await onSave(parsed.data);
      notify(room ? t.roomDialog.updated : t.roomDialog.created, { type: 'success' });
      onClose();
    } catch (err) {
      if (err instanceof HttpError) setErrors(err.fieldErrors);
      for (const m of failureToasts(err)) notify(m, { type: 'error' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" fullScreen={fullScreen} aria-labelledby="team-room-title">
      <Box
        component="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <DialogTitle id="team-room-title">{room ? t.roomDialog.editTitle : t.roomDialog.createTitle}</DialogTitle>
        <DialogContent>
          <TextField
            value={name}
            onChange={(e) => setName(e.target.value)}
            label={t.roomDialog.name}
            required
            fullWidth
            autoFocus
            error={Boolean(errors.name)}
            helperText={errors.name}
            slotProps={{ htmlInput: { maxLength: 80 } }}
            sx={{ mt: 1 }}
          />
          <Typography variant="subtitle2" sx={{ mt: 2 }} id="team-room-members">
            {t.roomDialog.members}
          </Typography>
          <FormHelperText error={Boolean(errors.members)}>{errors.members ?? t.roomDialog.membersHelp}</FormHelperText>
          <List dense aria-labelledby="team-room-members">
            {(colleagues.data ?? []).map((c) => (
              <ListItemButton key={c.id} onClick={() => toggle(c.id)} sx={{ minHeight: 44 }}>
                <ListItemIcon>
                  <Checkbox edge="start" checked={members.includes(c.id)} tabIndex={-1} disableRipple slotProps={{ input: { 'aria-label': c.name } }} />
                </ListItemIcon>
                <ListItemText primary={c.name} />
              </ListItemButton>
            ))}
          </List>
        </DialogContent>
        <DialogActions sx={{ flexWrap: 'wrap' }}>
          {room && onDelete ? (
            <Button color="error" onClick={() => setConfirming(true)} sx={{ mr: 'auto' }}>
              {t.roomDialog.delete}
            </Button>
          ) : null}
          <Button onClick={onClose}>{t.cancel}</Button>
          <Button type="submit" variant="contained" disabled={saving}>
            {room ? t.save : t.roomDialog.create}
          </Button>
        </DialogActions>
      </Box>
      {room && onDelete ? (
        <Confirm
          isOpen={confirming}
          title={format(t.roomDialog.deleteTitle, { name: room.name })}
          content={t.removeContent}
          confirm={t.roomDialog.delete}
          cancel={t.cancel}
          onConfirm={() =>
            void onDelete()
              .then(() => {
                notify(t.roomDialog.deleted, { type: 'success' });
                setConfirming(false);
                onClose();
              })
              .catch((err: unknown) => {
                for (const m of failureToasts(err)) notify(m, { type: 'error' });
                setConfirming(false);
              })
          }
          onClose={() => setConfirming(false)}
        />
      ) : null}
    </Dialog>
  );
}
