import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../providers/httpClient';
import { counterKey, listKeyPrefix } from '../segments/useSegments';
import { inboxKeys } from '../queryKeys';
import { apiList } from './listApi';
import type { Customer, FileEntry, MediaMessage } from './types';

export const customerKey = inboxKeys.customer;
export const customerMediaKey = inboxKeys.customerMedia;

/** SPEC §9: contact media 30 per page, customer suggestions 30. */
export const MEDIA_PAGE = 30;
export const CUSTOMER_SEARCH_LIMIT = 30;

export function useCustomer(id: number) {
  return useQuery({
    queryKey: customerKey(id),
    queryFn: ({ signal }) => api<Customer>(`/inbox/customer/${id}`, { signal }),
    enabled: id > 0,
  });
}

/** The answer of every contact change is the whole contact: it replaces the cache; lists show its name. */
function useCustomerMutation<V>(id: number, call: (vars: V) => Promise<Customer>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: async (customer) => {
      queryClient.setQueryData(customerKey(id), customer);
      await queryClient.invalidateQueries({ queryKey: listKeyPrefix });
    },
  });
}

export type CustomerUpdate = Partial<Pick<Customer, 'name' | 'email' | 'phone' | 'details'>>;

export function useUpdateCustomer(id: number) {
  return useCustomerMutation(id, (body: CustomerUpdate) => api<Customer>(`/inbox/customer/${id}`, { method: 'PUT', body }));
}

export function useSaveProperty(id: number) {
  return useCustomerMutation(id, (body: { id?: number; label: string; value: string }) =>
    api<Customer>(`/inbox/customer/${id}/properties`, { method: 'POST', body }),
  );
}

export function useDeleteProperty(id: number) {
  return useCustomerMutation(id, (propertyId: number) => api<Customer>(`/inbox/customer/${id}/properties/${propertyId}`, { method: 'DELETE' }));
}

/** Media of the contact's visible conversations, 30 at a time; 'load more' asks for the next 30. */
export function useCustomerMedia(id: number) {
  return useInfiniteQuery({
    queryKey: customerMediaKey(id),
    queryFn: ({ pageParam, signal }) => apiList<MediaMessage>('/inbox/media-messages', { id, limit: MEDIA_PAGE, offset: pageParam }, signal),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.data.length, 0);
      return last.data.length > 0 && loaded < last.matchCount ? loaded : undefined;
    },
  });
}

/** The file entries of a message's content (`{file: {...}}`). */
export function filesOf(message: MediaMessage): FileEntry[] {
  const out: FileEntry[] = [];
  for (const item of message.content ?? []) {
    const file = (item as { file?: FileEntry } | null)?.file;
    if (file && typeof file.key === 'string') out.push(file);
  }
  return out;
}

export function useMergeCustomer(stayId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (leaveId: number) => api<Customer>('/customer/merge-customer', { method: 'PUT', body: { stayId, leaveId } }),
    onSuccess: async (customer, leaveId) => {
      queryClient.setQueryData(customerKey(stayId), customer);
      queryClient.removeQueries({ queryKey: customerKey(leaveId) });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: customerMediaKey(stayId) }),
        queryClient.invalidateQueries({ queryKey: listKeyPrefix }),
        queryClient.invalidateQueries({ queryKey: counterKey }),
      ]);
    },
  });
}
