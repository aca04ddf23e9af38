import { useQuery, type QueryClient, type InfiniteData } from '@tanstack/react-query';
import type { TeamMessageView, TeamRoomView, TeamSearchHit } from '../../../api/teamChat/views';
import type { TeamMessageEditReq, TeamMessageReq, TeamRoomCreateReq, TeamRoomUpdateReq } from '../../../api/teamChat/schema';
import { api, request } from '../providers/httpClient';

/**
 * The team chat's calls (docs/team-chat.md "API") and the react-query keys its caches live under. The app
 * header imports this file (the badge): it imports no zod, only types of the api.
 */
export type TeamRoom = TeamRoomView;
export type TeamMessage = TeamMessageView;
export type TeamHit = TeamSearchHit;
export interface TeamRoomDetail extends TeamRoom {
  members: { id: number; name: string; avatar: string | null }[];
}
export interface MessagePage {
  data: TeamMessage[];
  hasMore: boolean;
}
export type MessagePages = InfiniteData<MessagePage, number | undefined>;
export interface RoomList {
  data: TeamRoom[];
  unread: number;
}

export const teamKeys = {
  all: ['team'] as const,
  rooms: ['team', 'rooms'] as const,
  room: (id: number) => ['team', 'room', id] as const,
  messages: (id: number) => ['team', 'messages', id] as const,
  search: (q: string, page: number) => ['team', 'search', q, page] as const,
};

async function fetchRooms(signal?: AbortSignal): Promise<RoomList> {
  const res = await request('/api/team/rooms', { signal });
  const json = res.json as { data?: TeamRoom[]; unread?: number };
  return { data: json.data ?? [], unread: json.unread ?? 0 };
}

/** The caller's rooms with their unread counts: the page's list and the header's badge share this cache. */
export function useTeamRooms() {
  return useQuery({ queryKey: teamKeys.rooms, queryFn: ({ signal }) => fetchRooms(signal), staleTime: 30_000 });
}

/** The badge: messages of others not read yet, across the caller's rooms. */
export function totalUnread(list: RoomList | undefined): number {
  return (list?.data ?? []).reduce((n, r) => n + r.unread, 0);
}

/** Applies `change` to the cached room `roomId` (no-op when the list is not loaded or does not have it). */
export function patchRoom(qc: QueryClient, roomId: number, change: (room: TeamRoom) => TeamRoom): boolean {
  let found = false;
  qc.setQueryData<RoomList>(teamKeys.rooms, (list) => {
    if (!list) return list;
    const data = list.data.map((r) => {
      if (r.id !== roomId) return r;
      found = true;
      return change(r);
    });
    return { data, unread: totalUnread({ data, unread: 0 }) };
  });
  return found;
}

/** Puts a message into its room's loaded pages: replaced where it is, or added as the newest. */
export function upsertMessage(qc: QueryClient, message: TeamMessage): void {
  qc.setQueryData<MessagePages>(teamKeys.messages(message.roomId), (pages) => {
    if (!pages || !pages.pages.length) return pages;
    let replaced = false;
    const next = pages.pages.map((p) => ({
      ...p,
      data: p.data.map((m) => {
        if (m.id !== message.id) return m;
        replaced = true;
        // A realtime event carries no mentions (they are per reader): keep what the API answered until refetched.
        return { ...message, mentions: message.mentions ?? m.mentions };
      }),
    }));
    if (!replaced) {
      const [first, ...rest] = next;
      return { ...pages, pages: [{ ...first!, data: [message, ...first!.data] }, ...rest] };
    }
    return { ...pages, pages: next };
  });
}

/** A `#protocolo` in a text: the reader's links are asked for (GET .../messages/{id}). */
export const mayMention = (text: string) => /#[0-9]/.test(text);

export const teamApi = {
  room: (id: number, signal?: AbortSignal) => api<TeamRoomDetail>(`/team/rooms/${id}`, { signal }),
  page: async (roomId: number, before: number | undefined, signal?: AbortSignal): Promise<MessagePage> => {
    const res = await request(`/api/team/rooms/${roomId}/messages${before ? `?before=${before}` : ''}`, { signal });
    return res.json as MessagePage;
  },
  message: (roomId: number, id: number) => api<TeamMessage>(`/team/rooms/${roomId}/messages/${id}`),
  send: (roomId: number, body: Partial<TeamMessageReq>) => api<TeamMessage>(`/team/rooms/${roomId}/messages`, { method: 'POST', body }),
  edit: (roomId: number, id: number, body: TeamMessageEditReq) => api<TeamMessage>(`/team/rooms/${roomId}/messages/${id}`, { method: 'PUT', body }),
  remove: (roomId: number, id: number) => api<TeamMessage>(`/team/rooms/${roomId}/messages/${id}`, { method: 'DELETE' }),
  read: (roomId: number, messageId?: number) => api<{ roomId: number; lastReadMessageId: number }>(`/team/rooms/${roomId}/read`, { method: 'POST', body: messageId ? { messageId } : {} }),
  createRoom: (body: TeamRoomCreateReq) => api<TeamRoom>('/team/rooms', { method: 'POST', body }),
  updateRoom: (id: number, body: TeamRoomUpdateReq) => api<TeamRoom>(`/team/rooms/${id}`, { method: 'PUT', body }),
  deleteRoom: (id: number) => api<void>(`/team/rooms/${id}`, { method: 'DELETE' }),
  direct: (operatorId: number) => api<TeamRoom>('/team/direct', { method: 'POST', body: { operatorId } }),
  search: async (q: string, page: number, signal?: AbortSignal): Promise<{ data: TeamHit[]; hasMore: boolean }> => {
    const res = await request(`/api/team/search?${new URLSearchParams({ q, page: String(page) })}`, { signal });
    return res.json as { data: TeamHit[]; hasMore: boolean };
  },
};

/** The room the page shows now, and whether the person is looking at it: its messages are read as they arrive. */
let openRoom: number | undefined;
export const setOpenTeamRoom = (id: number | undefined) => {
  openRoom = id;
};
export const lookingAt = (roomId: number) => openRoom === roomId && document.visibilityState === 'visible' && document.hasFocus();
