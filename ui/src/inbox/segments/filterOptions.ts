import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { HttpError } from '../../providers/httpClient';
import { useAgents, useGroups, useTags } from '../queries';
import { apiList } from '../contact/listApi';

export interface FilterOption {
  id: number;
  name: string;
}

export interface OptionSource {
  options: FilterOption[];
  loading: boolean;
  /** The API does not offer this list (not built yet: 404/405) or not to this operator (403): the field hides. */
  unavailable: boolean;
  failed: boolean;
}

function sourceOf(query: UseQueryResult<{ id: number; name?: string | null }[]>): OptionSource {
  const unavailable = query.error instanceof HttpError && [403, 404, 405].includes(query.error.status);
  return {
    options: (query.data ?? []).map((row) => ({ id: row.id, name: row.name ?? `#${row.id}` })),
    loading: query.isLoading,
    unavailable,
    failed: query.isError && !unavailable,
  };
}

interface ChannelRow {
  id: number;
  description: string | null;
  name: string | null;
  identifier: string | null;
}

function useChannels() {
  return useQuery({
    queryKey: ['inbox', 'ref', 'channels'],
    queryFn: async ({ signal }) =>
      (await apiList<ChannelRow>('/integrations/channel', { limit: 1000 }, signal)).data.map((c) => ({ id: c.id, name: c.description || c.name || c.identifier || `#${c.id}` })),
    retry: false,
    staleTime: 60_000,
  });
}

/** Choices of the filter editor's multi-selects; tags, agents and groups share the inbox's reference cache. */
export function useFilterOptions() {
  return {
    channels: sourceOf(useChannels()),
    groups: sourceOf(useGroups()),
    agents: sourceOf(useAgents()),
    tags: sourceOf(useTags()),
  };
}
