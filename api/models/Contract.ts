import type { Modifiers } from 'objection';
import { BaseModel } from './BaseModel';
import { newestFirst } from './modifiers';

/** SPEC §4 contract statuses (checked by contracts_status_check). */
export const CONTRACT_STATUSES = ['created', 'processed', 'formalized', 'rejected', 'failed', 'overwritten'] as const;
export type ContractStatus = (typeof CONTRACT_STATUSES)[number];

/** An imported contract (leftover product, docs/contracts.md). A formalized contract cannot be deleted: the API refuses it. */
export class Contract extends BaseModel {
  static override tableName = 'contracts';
  static override jsonAttributes = ['json'];
  id!: number;
  workspaceId!: number;
  name!: string;
  loanNumber!: string | null;
  /** 11 digits, no punctuation. */
  cpf!: string | null;
  /** The contract type. */
  code!: string;
  json!: Record<string, unknown> | null;
  status!: ContractStatus;
  /** Document hash. */
  stamp!: string | null;
  /** The storage key of the imported file (stored_files.key). */
  path!: string | null;
  /** The name the file was imported with. */
  fileName!: string | null;
  /** The files of one import share it; `contract-import:{workspaceId}:{importId}` processes them. */
  importId!: string | null;
  /** Why a `failed` contract failed (pt-BR). */
  error!: string | null;
  /** The contract with the same number that overwrote this one (`overwritten`). */
  replacedById!: number | null;
  formalizedAt!: Date | null;
  operatorId!: number | null;
  createdAt!: Date;
  updatedAt!: Date;

  static override modifiers: Modifiers = {
    withStatus(qb, status: ContractStatus) {
      qb.where('contracts.status', status);
    },
    newestFirst: newestFirst('contracts'),
  };
}
