import { useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'react-admin';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import ForumOutlined from '@mui/icons-material/ForumOutlined';
import { useSession } from '../providers/session';
import { failureToasts } from '../forms/serverErrors';
import { INBOX } from '../inbox/constants';
import { RoomList } from './RoomList';
import { RoomView } from './RoomView';
import { DirectDialog, RoomDialog } from './TeamDialogs';
import { teamApi, teamKeys, type TeamRoomDetail } from './teamApi';
import { teamTexts as t } from './texts';

/**
 * The team chat at /equipe and /equipe/{roomId} (docs/team-chat.md): the rooms on the left, the open room on
 * the right; on a phone one pane at a time (the list at /equipe, the room with a back arrow).
 */
export default function TeamChatPage() {
  const params = useParams();
  const roomId = Number(params.roomId) || undefined;
  const [search] = useSearchParams();
  const focusMessage = Number(search.get('message')) || undefined;
  const session = useSession();
  const me = session?.user.id ?? 0;
  const manager = (session?.workspace.accessLevel ?? 0) >= 6;
  const onePane = useMediaQuery(`(max-width:${INBOX.onePaneAt}px)`);
  const navigate = useNavigate();
  const notify = useNotify();
  const qc = useQueryClient();
  const [directOpen, setDirectOpen] = useState(false);
  const [roomDialog, setRoomDialog] = useState<{ room?: TeamRoomDetail } | null>(null);

  const openDirect = async (operatorId: number) => {
    try {
      const room = await teamApi.direct(operatorId);
      setDirectOpen(false);
      void qc.invalidateQueries({ queryKey: teamKeys.rooms });
      void navigate(`/equipe/${room.id}`);
    } catch (err) {
      for (const m of failureToasts(err)) notify(m, { type: 'error' });
    }
  };
  const saveRoom = async (input: { name: string; members: number[] }) => {
    const editing = roomDialog?.room;
    const saved = editing ? await teamApi.updateRoom(editing.id, input) : await teamApi.createRoom(input);
    await qc.invalidateQueries({ queryKey: teamKeys.rooms });
    void qc.invalidateQueries({ queryKey: teamKeys.room(saved.id) });
    if (!editing) void navigate(`/equipe/${saved.id}`);
    return saved;
  };
  const deleteRoom = async () => {
    const editing = roomDialog?.room;
    if (!editing) return;
    await teamApi.deleteRoom(editing.id);
    qc.removeQueries({ queryKey: teamKeys.room(editing.id) });
    qc.removeQueries({ queryKey: teamKeys.messages(editing.id) });
    await qc.invalidateQueries({ queryKey: teamKeys.rooms });
    void navigate('/equipe');
  };

  const showList = !onePane || !roomId;
  const showRoom = !onePane || Boolean(roomId);
  return (
    <Box sx={{ display: 'flex', height: '100%', minHeight: 0, bgcolor: 'background.paper' }}>
      {showList ? (
        <Box component="nav" aria-label={t.title} sx={{ width: onePane ? '100%' : 320, flexShrink: 0, borderRight: onePane ? 0 : 1, borderColor: 'divider', minHeight: 0 }}>
          <RoomList selected={roomId} onNewDirect={() => setDirectOpen(true)} onNewRoom={manager ? () => setRoomDialog({}) : undefined} />
        </Box>
      ) : null}
      {showRoom ? (
        <Box sx={{ flex: 1, minWidth: 0, minHeight: 0 }}>
          {roomId ? (
            <RoomView key={roomId} roomId={roomId} onePane={onePane} focusMessage={focusMessage} onManage={(room) => setRoomDialog({ room })} />
          ) : (
            <Box sx={{ height: '100%', display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 1, color: 'text.secondary', p: 3, textAlign: 'center' }}>
              <ForumOutlined sx={{ fontSize: 48 }} aria-hidden />
              <Typography>{t.pickRoom}</Typography>
            </Box>
          )}
        </Box>
      ) : null}
      <DirectDialog open={directOpen} me={me} onClose={() => setDirectOpen(false)} onOpen={(id) => void openDirect(id)} />
      {roomDialog ? <RoomDialog open me={me} room={roomDialog.room} onClose={() => setRoomDialog(null)} onSave={saveRoom} onDelete={roomDialog.room ? deleteRoom : undefined} /> : null}
    </Box>
  );
}
