import type { Modifiers } from 'objection';
import { BaseModel } from './BaseModel';
import { newestFirst } from './modifiers';

/** SPEC §4 contract statuses (checked by contracts_status_check). */
export const CONTRACT_STATUSES = ['created', 'processed', 'formalized', 'rejected', 'failed', 'overwritten'] as const;
export type ContractStatus = (typeof CONTRACT_STATUSES)[number];

/** An imported contract (leftover product). A formalized contract cannot be deleted: the API refuses it. */
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
  path!: string | null;
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
