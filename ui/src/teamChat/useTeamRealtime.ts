import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useRealtimeEvent, useRealtimeLastConnect, useRealtimeStatus, useRealtimeTopics } from '../realtime/RealtimeProvider';
import { teamRoomTopic } from '../realtime/events';
import { useSession } from '../providers/session';
import { playNotificationSound } from '../inbox/sound';
import { TEAM_SOUND_PREFERENCE } from './labels';
import { lookingAt, mayMention, patchRoom, teamApi, teamKeys, totalUnread, upsertMessage, useTeamRooms, type TeamMessage, type TeamRoom } from './teamApi';

const preview = (m: TeamMessage) => (m.isDeleted ? '' : m.body.replace(/\s+/g, ' ').trim().slice(0, 140) || (m.file ? `📎 ${m.file.fileName}` : ''));

/**
 * The team chat's realtime (docs/team-chat.md "Realtime"), mounted by the app header so the badge and the
 * sound work on every page: it holds the topics of the caller's rooms (the broker checks each), keeps the
 * room list and the loaded pages up to date, and answers with the unread total for the badge.
 */
export function useTeamRealtime(): number {
  const qc = useQueryClient();
  const session = useSession();
  const me = session?.user.id ?? 0;
  const workspaceId = session?.workspace.workspaceId ?? 0;
  const rooms = useTeamRooms();
  useRealtimeTopics((rooms.data?.data ?? []).map((r) => teamRoomTopic(workspaceId, r.id)));

  useRealtimeEvent((event) => {
    if (!event.event.startsWith('team.')) return;
    const data = (event.data ?? {}) as { roomId?: number; message?: TeamMessage; lastReadMessageId?: number };
    const roomId = Number(data.roomId);
    switch (event.event) {
      case 'team.message': {
        const m = data.message;
        if (!m) return;
        upsertMessage(qc, m);
        const mine = m.author?.id === me;
        const seen = mine || lookingAt(m.roomId);
        const known = patchRoom(qc, m.roomId, (r: TeamRoom) => ({
          ...r,
          unread: seen ? 0 : r.unread + 1,
          lastReadMessageId: seen ? m.id : r.lastReadMessageId,
          lastMessage: { id: m.id, authorId: m.author?.id ?? null, authorName: m.author?.name ?? null, preview: preview(m), createdAt: m.createdAt, isDeleted: false },
        }));
        if (!known) void qc.invalidateQueries({ queryKey: teamKeys.rooms });
        if (mayMention(m.body)) void teamApi.message(m.roomId, m.id).then((full) => upsertMessage(qc, full), () => undefined);
        break;
      }
      case 'team.messageUpdated':
      case 'team.messageDeleted': {
        const m = data.message;
        if (!m) return;
        upsertMessage(qc, { ...m, mentions: m.isDeleted ? [] : undefined });
        if (!m.isDeleted && mayMention(m.body)) void teamApi.message(m.roomId, m.id).then((full) => upsertMessage(qc, full), () => undefined);
        patchRoom(qc, m.roomId, (r) => (r.lastMessage?.id === m.id ? { ...r, lastMessage: { ...r.lastMessage, preview: preview(m), isDeleted: m.isDeleted } } : r));
        // A deleted message is no longer unread.
        if (m.isDeleted && m.author?.id !== me) void qc.invalidateQueries({ queryKey: teamKeys.rooms });
        break;
      }
      case 'team.rooms':
        void qc.invalidateQueries({ queryKey: teamKeys.rooms });
        if (roomId) void qc.invalidateQueries({ queryKey: teamKeys.room(roomId) });
        break;
      case 'team.read':
        if (roomId) patchRoom(qc, roomId, (r) => (Number(data.lastReadMessageId) >= (r.lastMessage?.id ?? 0) ? { ...r, unread: 0, lastReadMessageId: Number(data.lastReadMessageId) } : r));
        break;
    }
  });

  // A reconnection that did not resume the broker's session may have missed messages: the chat is refetched.
  const status = useRealtimeStatus();
  const lastConnect = useRealtimeLastConnect();
  const wasOnline = useRef(false);
  useEffect(() => {
    if (status !== 'online') return;
    if (wasOnline.current && lastConnect() !== 'resumed') void qc.invalidateQueries({ queryKey: teamKeys.all });
    wasOnline.current = true;
  }, [status, qc, lastConnect]);

  // The chime: whenever colleagues' unread messages grow (a message in a room, or the first one of a new direct
  // conversation, which arrives as a new room), not for what was unread when the page loaded.
  const total = totalUnread(rooms.data);
  const before = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (!rooms.isSuccess) return;
    if (before.current !== undefined && total > before.current) playNotificationSound(TEAM_SOUND_PREFERENCE);
    before.current = total;
  }, [total, rooms.isSuccess]);

  return total;
}
