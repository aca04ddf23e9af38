import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ScheduleView } from '../../../api/schedules/presenters';
import type { ScheduleCreateReq, ScheduleState, ScheduleUpdateReq } from '../../../api/schedules/schema';
import { SCHEDULES_PAGE_SIZE } from '../../../api/schedules/schema';
import { api } from '../providers/httpClient';
import { apiList, type ListPage } from '../inbox/contact/listApi';

/** A schedule as GET /schedules answers it (api/schedules/presenters.ts). */
export type Schedule = ScheduleView;

export interface ScheduleFilters {
  state: ScheduleState | '';
  operatorId: number | '';
  channelId: number | '';
}

/** Every cached list of schedules starts with this key: a change refreshes them all. */
export const scheduleKeys = {
  all: ['schedules'] as const,
  list: (f: ScheduleFilters, page: number) => ['schedules', 'list', f, page] as const,
  conversation: (conversationId: number) => ['schedules', 'conversation', conversationId] as const,
  workspaceZone: ['schedules', 'workspace-zone'] as const,
};

/** The workspace-wide list (/schedules): filters and one page. */
export function useSchedules(f: ScheduleFilters, page: number) {
  return useQuery({
    queryKey: scheduleKeys.list(f, page),
    queryFn: ({ signal }) =>
      apiList<Schedule>(
        '/schedules',
        { state: f.state || undefined, operatorId: f.operatorId || undefined, channelId: f.channelId || undefined, limit: SCHEDULES_PAGE_SIZE, offset: page * SCHEDULES_PAGE_SIZE },
        signal,
      ),
    placeholderData: keepPreviousData,
    // Sends happen in the worker, with no event for the list: a pending one turns 'Enviada' within a minute.
    refetchInterval: (q) => ((q.state.data as ListPage<Schedule> | undefined)?.data.some((s) => s.state === 'scheduled') ? 60_000 : false),
  });
}

/** A conversation's schedules, pending first (the composer dialog's list). */
export function useConversationSchedules(conversationId: number) {
  return useQuery({
    queryKey: scheduleKeys.conversation(conversationId),
    queryFn: ({ signal }) => apiList<Schedule>('/schedules', { conversationId, limit: 50 }, signal) as Promise<ListPage<Schedule>>,
    refetchInterval: 60_000,
  });
}

/** The workspace's time zone: the form's date and time are read in it. */
export function useWorkspaceZone() {
  return useQuery({
    queryKey: scheduleKeys.workspaceZone,
    queryFn: async ({ signal }) => (await api<{ timeZone?: string | null }>('/workspace', { signal })).timeZone || 'America/Sao_Paulo',
    staleTime: 5 * 60_000,
  });
}

export const schedulesApi = {
  create: (body: ScheduleCreateReq) => api<Schedule>('/schedules', { method: 'POST', body }),
  update: (id: number, body: ScheduleUpdateReq) => api<Schedule>(`/schedules/${id}`, { method: 'PUT', body }),
  cancel: (id: number) => api<Schedule>(`/schedules/${id}/cancel`, { method: 'POST', body: {} }),
};
