import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../providers/httpClient';
import { apiList } from '../contact/listApi';

export interface QuickPhrase {
  id: number;
  tag: string;
  phrase: string;
  privacy: 'public' | 'private';
  hotkey?: string | null;
}

export interface QuickPhraseBody {
  tag: string;
  phrase: string;
  privacy: 'public' | 'private';
}

export const quickPhrasesKey = ['inbox', 'quickPhrases'] as const;

/** The composer's '/' list needs them all at once; the API caps a page at 1000. */
const LIMIT = 1000;

const NONE: QuickPhrase[] = [];

/** The query behind useQuickPhrases, for views that show its loading and error states. */
export function useQuickPhrasesQuery() {
  return useQuery({
    queryKey: quickPhrasesKey,
    queryFn: async ({ signal }) => (await apiList<QuickPhrase>('/inbox/quick-phrases', { limit: LIMIT }, signal)).data,
    staleTime: 60_000,
  });
}

/** Every quick phrase the operator may use (public + own private), in `sort` order; [] while loading. */
export function useQuickPhrases(): QuickPhrase[] {
  return useQuickPhrasesQuery().data ?? NONE;
}

export function useSaveQuickPhrase() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: QuickPhraseBody }) =>
      api<QuickPhrase>(id ? `/inbox/quick-phrases/${id}` : '/inbox/quick-phrases', { method: id ? 'PUT' : 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: quickPhrasesKey }),
  });
}

export function useDeleteQuickPhrase() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<QuickPhrase>(`/inbox/quick-phrases/${id}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: quickPhrasesKey }),
  });
}
