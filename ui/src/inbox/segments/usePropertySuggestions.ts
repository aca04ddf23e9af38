import { useQuery } from '@tanstack/react-query';
import { api } from '../../providers/httpClient';
import { useDebounced } from '../../common/useDebounced';

interface Suggestion {
  property: string;
  value: string | null;
}

/** SPEC §9: property suggestions are limited to 20. */
const LIMIT = 20;

/**
 * Suggestions for the filter's customer attribute (names) or, once a name is chosen, its values.
 * SPEC §8: a failed suggestion call just means no suggestions.
 */
export function usePropertySuggestions(property: string, value: string | null) {
  const p = useDebounced(property.trim());
  const v = useDebounced(value?.trim() ?? null);
  const forValues = value !== null;
  const query = useQuery({
    queryKey: ['inbox', 'propertySuggestions', p, forValues ? v : null],
    queryFn: async ({ signal }) => {
      const params = new URLSearchParams({ property: p, limit: String(LIMIT) });
      if (forValues && v) params.set('value', v);
      try {
        return await api<Suggestion[]>(`/customer/properties?${params.toString()}`, { signal });
      } catch (err) {
        if ((err as Error).name === 'AbortError') throw err;
        return [];
      }
    },
    enabled: forValues ? p.length > 0 : true,
    staleTime: 30_000,
  });
  const rows = Array.isArray(query.data) ? query.data : [];
  const list = rows.map((s) => (forValues ? s.value : s.property)).filter((s): s is string => typeof s === 'string' && s.length > 0);
  return [...new Set(list)];
}
