import { useQuery } from '@tanstack/react-query';
import { HttpError } from '../../providers/httpClient';
import { apiList } from '../contact/listApi';

export interface FilterOption {
  id: number;
  name: string;
}

/** Lists larger than this are not offered as filter choices anyway. */
const OPTIONS_LIMIT = 1000;

/**
 * Choices for one multi-select of the filter editor. A list the API does not offer (not built yet:
 * 404/405) or that the operator may not read (403: members and groups are level 6+) hides its field.
 */
function useOptions(name: string, path: string, label: (row: Record<string, unknown>) => string) {
  const query = useQuery({
    queryKey: ['inbox', 'segmentOptions', name],
    queryFn: async ({ signal }) => {
      const page = await apiList<Record<string, unknown>>(path, { limit: OPTIONS_LIMIT }, signal);
      return page.data.map((row): FilterOption => ({ id: Number(row.id), name: label(row) }));
    },
    retry: (count, err) => !(err instanceof HttpError && err.status >= 400 && err.status < 500) && count < 2,
    staleTime: 60_000,
  });
  const unavailable = query.error instanceof HttpError && [403, 404, 405].includes(query.error.status);
  return { options: query.data ?? [], loading: query.isLoading, unavailable, failed: query.isError && !unavailable };
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');

export function useFilterOptions() {
  return {
    channels: useOptions('channels', '/integrations/channel', (r) => text(r.description) || text(r.name) || text(r.identifier) || `#${String(r.id)}`),
    groups: useOptions('groups', '/group', (r) => text(r.name)),
    agents: useOptions('agents', '/operator', (r) => text(r.name) || text(r.email)),
    tags: useOptions('tags', '/label', (r) => text(r.name)),
  };
}
