import { z } from 'zod';
import { queryDay } from '../http/textFields';
import { CONTRACT_DECISIONS, CONTRACT_TYPE_CODES, MAX_IMPORT_FILES } from './catalog';

/**
 * Contract requests (SPEC §5, §7; docs/contracts.md), shared by the api and the /contracts screens. Only
 * zod, the catalog and the zod-only fields here: the browser imports this file.
 */
export const CONTRACT_MESSAGES = {
  code: 'Selecione o tipo do contrato.',
  files: 'Selecione ao menos um arquivo.',
  tooManyFiles: `Envie no máximo ${MAX_IMPORT_FILES} arquivos por importação.`,
  noJson: 'Este contrato não tem JSON: o tipo só pode ser alterado em contratos com dados.',
  decision: 'Escolha formalizado ou recusado.',
  from: 'Data inicial inválida.',
  to: 'Data final inválida.',
  period: 'A data final deve ser igual ou posterior à inicial.',
} as const;

/** Contracts shown per page (SPEC §9 tables: 20). */
export const CONTRACTS_PAGE_SIZE = 20;

export const ContractCodeSchema = z.enum(CONTRACT_TYPE_CODES, { error: CONTRACT_MESSAGES.code });

/** The import dialog's form: one type and one or more files (the files travel as multipart, the type as its `code` field). */
export const ContractImportFormSchema = z.object({
  code: ContractCodeSchema,
  files: z.array(z.unknown()).min(1, CONTRACT_MESSAGES.files).max(MAX_IMPORT_FILES, CONTRACT_MESSAGES.tooManyFiles),
});

/** PUT /contract/{id} and POST /contract {id, code}: the type edit (SPEC §7 "type update id plus code"). */
export const ContractTypeUpdateSchema = z.object({ code: ContractCodeSchema });
export type ContractTypeUpdateReq = z.infer<typeof ContractTypeUpdateSchema>;

/** POST /contract/{id}/status: the client formalized or refused a contract waiting for formalization. */
export const ContractDecisionSchema = z.strictObject({ status: z.enum(CONTRACT_DECISIONS, { error: CONTRACT_MESSAGES.decision }) });
export type ContractDecisionReq = z.infer<typeof ContractDecisionSchema>;

/** The period filter of the list (days in the workspace's time zone, both ends included). */
export const ContractPeriodSchema = z
  .object({ from: queryDay(CONTRACT_MESSAGES.from).optional(), to: queryDay(CONTRACT_MESSAGES.to).optional() })
  .refine((p) => !p.from || !p.to || p.from <= p.to, { path: ['to'], message: CONTRACT_MESSAGES.period });
export type ContractPeriod = z.infer<typeof ContractPeriodSchema>;
