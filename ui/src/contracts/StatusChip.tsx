import Chip, { type ChipProps } from '@mui/material/Chip';
import type { ContractStatus } from '../../../api/models/Contract';
import { CONTRACT_STATUS_LABELS } from '../../../api/contracts/catalog';

const COLORS: Record<ContractStatus, ChipProps['color']> = {
  created: 'info',
  processed: 'warning',
  formalized: 'success',
  rejected: 'default',
  failed: 'error',
  overwritten: 'default',
};

/** A contract's status with its label (docs/contracts.md "Statuses"). */
export function StatusChip({ status }: { status: ContractStatus }) {
  return <Chip size="small" color={COLORS[status]} variant={status === 'overwritten' ? 'outlined' : 'filled'} label={CONTRACT_STATUS_LABELS[status] ?? status} data-status={status} />;
}
