import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ContractStatus } from '../../../api/models/Contract';
import type { ContractDecision } from '../../../api/contracts/catalog';
import { CONTRACTS_PAGE_SIZE } from '../../../api/contracts/schema';
import { api, request } from '../providers/httpClient';
import { apiList, type ListPage } from '../inbox/contact/listApi';

/** A contract as GET /contract answers it (api/contracts/presenters.ts). */
export interface ContractRow {
  id: number;
  name: string;
  loanNumber: string | null;
  cpf: string | null;
  code: string;
  json: Record<string, unknown> | null;
  status: ContractStatus;
  stamp: string | null;
  path: string | null;
  fileName: string | null;
  error: string | null;
  replacedById: number | null;
  createdAt: string;
  formalized: string | null;
  updatedAt: string;
}

/** The tabs: Todos, Pendentes (processed) and Concluídos (formalized). */
export const CONTRACT_TABS = [
  { value: 'all', status: undefined },
  { value: 'pending', status: 'processed' },
  { value: 'done', status: 'formalized' },
] as const;
export type ContractTab = (typeof CONTRACT_TABS)[number]['value'];

export interface ContractFilters {
  tab: ContractTab;
  query: string;
  from: string;
  to: string;
}

export const contractKeys = {
  all: ['contracts'] as const,
  list: (f: ContractFilters, page: number) => ['contracts', 'list', f, page] as const,
  one: (id: number) => ['contracts', 'one', id] as const,
};

/** While a shown contract is still being processed the page asks again (realtime usually comes first). */
const PROCESSING_POLL_MS = 3000;

/** `enabled` false while the filters cannot be asked (an 'Até' before the 'De'): the page says why instead. */
export function useContracts(f: ContractFilters, page: number, enabled = true) {
  const status = CONTRACT_TABS.find((t) => t.value === f.tab)?.status;
  return useQuery({
    enabled,
    queryKey: contractKeys.list(f, page),
    queryFn: ({ signal }) =>
      apiList<ContractRow>('/contract', { status, query: f.query.trim() || undefined, from: f.from || undefined, to: f.to || undefined, limit: CONTRACTS_PAGE_SIZE, offset: page * CONTRACTS_PAGE_SIZE }, signal),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => ((q.state.data as ListPage<ContractRow> | undefined)?.data.some((c) => c.status === 'created') ? PROCESSING_POLL_MS : false),
  });
}

export function useContract(id: number | undefined) {
  return useQuery({
    queryKey: contractKeys.one(id ?? 0),
    queryFn: ({ signal }) => api<ContractRow>(`/contract/${id}`, { signal }),
    enabled: id !== undefined,
    refetchInterval: (q) => ((q.state.data as ContractRow | undefined)?.status === 'created' ? PROCESSING_POLL_MS : false),
  });
}

export const contractsApi = {
  /** 'Importar Contrato': the type as `code`, then each file as `files` (SPEC §7 "multipart import with files and code"). */
  import: async (code: string, files: File[]): Promise<ContractRow[]> => {
    const form = new FormData();
    form.append('code', code);
    for (const f of files) form.append('files', f, f.name);
    const res = await request('/api/contract/import', { method: 'POST', body: form });
    return (res.json as { data: ContractRow[] }).data;
  },
  changeType: (id: number, code: string) => api<ContractRow>(`/contract/${id}`, { method: 'PUT', body: { code } }),
  decide: (id: number, status: ContractDecision) => api<ContractRow>(`/contract/${id}/status`, { method: 'POST', body: { status } }),
  remove: (id: number) => api<{ id: number }>(`/contract/${id}`, { method: 'DELETE' }),
  downloadLink: (id: number) => api<{ url: string }>(`/contract/${id}/link`, { method: 'POST' }),
};
