import type { ContractStatus } from '../models/Contract';

/**
 * The contract types an import may name and the file formats each accepts (docs/contracts.md "Types and
 * layouts"). Pure: the api, the import activity and the screens read the same list.
 */
export const CONTRACT_FORMATS = ['json', 'csv', 'pdf'] as const;
export type ContractFormat = (typeof CONTRACT_FORMATS)[number];

export const FORMAT_LABELS: Record<ContractFormat, string> = { json: 'JSON', csv: 'CSV', pdf: 'PDF' };

export interface ContractType {
  code: string;
  name: string;
  formats: readonly ContractFormat[];
}

export const CONTRACT_TYPES = [
  { code: 'consignado', name: 'Empréstimo consignado', formats: ['json', 'csv', 'pdf'] },
  { code: 'ccb', name: 'Cédula de Crédito Bancário (CCB)', formats: ['json', 'pdf'] },
  { code: 'refinanciamento', name: 'Refinanciamento', formats: ['json', 'pdf'] },
] as const satisfies readonly ContractType[];

export const CONTRACT_TYPE_CODES = CONTRACT_TYPES.map((t) => t.code) as [string, ...string[]];

export function contractType(code: string): ContractType | undefined {
  return CONTRACT_TYPES.find((t) => t.code === code);
}

/** A type's name; a code outside the catalog (older rows) is shown as it is. */
export const contractTypeName = (code: string) => contractType(code)?.name ?? code;

/** SPEC §4 gives 'Processando' and 'Aguardando Formalização'; the other labels are ours (docs/contracts.md). */
export const CONTRACT_STATUS_LABELS: Record<ContractStatus, string> = {
  created: 'Processando',
  processed: 'Aguardando Formalização',
  formalized: 'Formalizado',
  rejected: 'Recusado pelo cliente',
  failed: 'Falha no processamento',
  overwritten: 'Substituído',
};

/** The statuses a person sets on a contract waiting for formalization (POST /contract/{id}/status). */
export const CONTRACT_DECISIONS = ['formalized', 'rejected'] as const satisfies readonly ContractStatus[];
export type ContractDecision = (typeof CONTRACT_DECISIONS)[number];

/** At most this many files in one import. */
export const MAX_IMPORT_FILES = 20;

/**
 * The format of a stored file, from the type its bytes were classified as (api/assets/classifyContent.ts)
 * and, for text, its name: `.json` is JSON, `.csv` or `.txt` the CSV layout. Undefined: no contract format.
 */
export function formatOfFile(file: { mime: string; fileName: string }): ContractFormat | undefined {
  if (file.mime === 'application/pdf') return 'pdf';
  if (file.mime === 'application/json' || (file.mime.startsWith('text/') && /\.json$/i.test(file.fileName))) return 'json';
  if (file.mime.startsWith('text/') && /\.(csv|txt)$/i.test(file.fileName)) return 'csv';
  return undefined;
}

/** '52998224725' as '529.982.247-25' (the SPEC §3 CPF is kept as 11 digits). */
export function maskCpf(digits: string | null | undefined): string {
  if (!digits) return '';
  const m = /^(\d{3})(\d{3})(\d{3})(\d{2})$/.exec(digits);
  return m ? `${m[1]}.${m[2]}.${m[3]}-${m[4]}` : digits;
}
