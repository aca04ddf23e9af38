import { api, request } from '../providers/httpClient';
import type { Agent, ContentItem, Conversation, ConversationPage, Counter, FileEntry, Group, Message, MessagePage, Tag } from './types';

/** The inbox calls of docs/api/inbox.md, through the one HTTP client. */

function qs(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') search.set(k, String(v));
  const s = search.toString();
  return s ? `?${s}` : '';
}

export async function fetchConversations(params: { segmentId: string; limit: number; cursor?: string | null; query?: string }, signal?: AbortSignal): Promise<ConversationPage> {
  const res = await request(`/api/inbox${qs({ segmentId: params.segmentId, limit: params.limit, cursor: params.cursor, query: params.query })}`, { signal });
  const json = res.json as Partial<ConversationPage> | undefined;
  return { data: json?.data ?? [], matchCount: json?.matchCount ?? 0, totalCount: json?.totalCount ?? 0, nextCursor: json?.nextCursor ?? null };
}

export const fetchConversation = (id: number, signal?: AbortSignal) => api<Conversation>(`/inbox/conversations/${id}`, { signal });
export const markRead = (id: number) => api<Conversation>(`/inbox/conversations/${id}/read`, { method: 'POST', body: {} });
export const fetchCounter = (signal?: AbortSignal) => api<Counter>('/inbox/counter', { method: 'POST', body: {}, signal });

export async function fetchMessages(params: { id: number; limit: number; before?: number; after?: number; around?: number }, signal?: AbortSignal): Promise<MessagePage> {
  const res = await request(`/api/inbox/messages${qs({ id: params.id, limit: params.limit, before: params.before, after: params.after, around: params.around })}`, { signal });
  const json = res.json as Partial<MessagePage> | undefined;
  return { data: json?.data ?? [], matchCount: json?.matchCount ?? 0 };
}

export const sendMessage = (body: { id: number; content: ContentItem[]; type: 0 | 2; replyTo?: number }) =>
  api<Message>('/inbox/messages', { method: 'POST', body });
export const deleteMessage = (messageId: number) => api<Message>(`/inbox/messages/${messageId}`, { method: 'DELETE' });

export const setStatus = (segment: string, id: number, status: 'resolve' | 'open') =>
  api<Conversation>(`/inbox/${encodeURIComponent(segment)}/${id}`, { method: 'POST', body: { status } });
export const setStarred = (id: number, starred: boolean) =>
  api<{ id: number; starred: boolean }>(`/inbox/favorites/${id}`, { method: starred ? 'POST' : 'DELETE', body: starred ? {} : undefined });
export const setTags = (id: number, tags: number[], callId?: number | null) =>
  api<Conversation>('/inbox/tag', { method: 'PUT', body: { id, tags, ...(callId ? { callId } : {}) } });
export const transferOperator = (customerPlatformId: number, operatorId: number | null) =>
  api<Conversation>('/calls/transfer-operator', { method: 'POST', body: { customerPlatformId, operatorId } });
export const transferGroup = (customerPlatformId: number, groupId: number | null) =>
  api<Conversation>('/calls/transfer-group', { method: 'POST', body: { customerPlatformId, groupId } });
/** Starts a bot on the conversation; `botId: null` is 'Atendimento manual' (docs/bots.md). */
export const initBot = (customerPlatformId: number, botId: number | null) =>
  api<Conversation>('/calls/init-bot', { method: 'POST', body: { customerPlatformId, botId } });
export const composing = (customerPlatformId: number) =>
  request('/api/integrations/composing', { method: 'POST', body: { customerPlatformId } });

/** `POST /assets/upload` (multipart file0, file1…): the stored entries to send as a file message. */
export async function uploadFiles(files: File[]): Promise<FileEntry[]> {
  const form = new FormData();
  files.forEach((file, i) => form.append(`file${i}`, file, file.name));
  return api<FileEntry[]>('/assets/upload', { method: 'POST', body: form });
}

/** Lists owned by other areas (tags, members, groups); `{data}` of the SPEC list dialect. */
async function listOf<T>(path: string, signal?: AbortSignal): Promise<T[]> {
  const res = await request(`/api${path}`, { signal });
  const json = res.json as { data?: T[] } | T[] | undefined;
  return Array.isArray(json) ? json : (json?.data ?? []);
}
export const fetchTags = (signal?: AbortSignal) => listOf<Tag>('/label?limit=1000', signal);
export const fetchAgents = (signal?: AbortSignal) => listOf<Agent>('/operator?limit=200', signal);
export const fetchGroups = (signal?: AbortSignal) => listOf<Group>('/group?limit=200', signal);
/** The bots an agent may start from the inbox: the active ones (the bot list is level 6+; below that it is empty). */
export const fetchActiveBots = async (signal?: AbortSignal) =>
  (await listOf<{ id: number; name: string; isActive: boolean }>('/bot?limit=200', signal).catch(() => [])).filter((b) => b.isActive);
