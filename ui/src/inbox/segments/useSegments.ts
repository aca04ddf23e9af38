import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '../../providers/httpClient';
import type { Segment } from './types';

/** react-query keys other inbox parts read (sidebar, counters, conversation list). */
export const segmentsKey = ['inbox', 'segments'] as const;
export const counterKey = ['inbox', 'counter'] as const;
export const listKeyPrefix = ['inbox', 'list'] as const;

const fetchSegments = () => api<Segment[]>('/inbox/segments');

/** Every segment the operator may see (own + public), in `sort` order. */
export function useSegments() {
  return useQuery({ queryKey: segmentsKey, queryFn: fetchSegments });
}

const subscribedOnly = (rows: Segment[]) => rows.filter((s) => s.subscribed);

/** The segments in the operator's sidebar (same cache as useSegments, one request). */
export function useSubscribedSegments() {
  return useQuery({ queryKey: segmentsKey, queryFn: fetchSegments, select: subscribedOnly });
}

/** A segment change moves conversations between lists and counters. */
export function invalidateInboxViews(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: segmentsKey }),
    queryClient.invalidateQueries({ queryKey: counterKey }),
    queryClient.invalidateQueries({ queryKey: listKeyPrefix }),
  ]);
}

export interface SegmentSaveBody {
  id?: number;
  name: string;
  icon?: string | null;
  isPublic: boolean;
  inbox: 'me' | 'workspace';
  filters: Segment['filters'];
}

export function useSaveSegment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SegmentSaveBody) => api<Segment>('/inbox/segments', { method: 'POST', body }),
    onSuccess: () => invalidateInboxViews(queryClient),
  });
}

export function useDeleteSegment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<Segment>(`/inbox/segments/${id}`, { method: 'DELETE' }),
    onSuccess: () => invalidateInboxViews(queryClient),
  });
}

export function useToggleSegmentSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, subscribed }: { id: number; subscribed: boolean }) =>
      api<Segment>(`/inbox/segments/${subscribed ? 'subscribe' : 'unsubscribe'}/${id}`, { method: 'POST' }),
    onMutate: async ({ id, subscribed }) => {
      await queryClient.cancelQueries({ queryKey: segmentsKey });
      const before = queryClient.getQueryData<Segment[]>(segmentsKey);
      queryClient.setQueryData<Segment[]>(segmentsKey, (rows) => rows?.map((s) => (s.id === id ? { ...s, subscribed } : s)));
      return { before };
    },
    onError: (_err, _vars, context) => {
      if (context?.before) queryClient.setQueryData(segmentsKey, context.before);
    },
    onSettled: () => invalidateInboxViews(queryClient),
  });
}

/** New order of the whole visible list; applied at once and rolled back when refused. */
export function useSortSegments() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: number[]) => api<{ ids: number[] }>('/inbox/segments/sort', { method: 'PATCH', body: { ids } }),
    onMutate: async (ids) => {
      await queryClient.cancelQueries({ queryKey: segmentsKey });
      const before = queryClient.getQueryData<Segment[]>(segmentsKey);
      if (before) {
        const byId = new Map(before.map((s) => [s.id, s]));
        const ordered = ids.map((id, sort) => ({ ...byId.get(id)!, sort })).filter((s) => s.id !== undefined);
        queryClient.setQueryData<Segment[]>(segmentsKey, ordered);
      }
      return { before };
    },
    onError: (_err, _ids, context) => {
      if (context?.before) queryClient.setQueryData(segmentsKey, context.before);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: segmentsKey }),
  });
}
