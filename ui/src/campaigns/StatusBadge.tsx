import Chip from '@mui/material/Chip';
import Autorenew from '@mui/icons-material/Autorenew';
import { keyframes } from '@mui/material/styles';
import { campaignTexts as t } from './texts';
import type { CampaignStatus } from './campaignsApi';

const spin = keyframes`from { transform: rotate(0deg); } to { transform: rotate(360deg); }`;

const COLORS: Record<CampaignStatus, 'default' | 'info' | 'primary' | 'warning' | 'success' | 'error'> = {
  waiting_file_processing: 'default',
  waiting_processing: 'info',
  executing: 'primary',
  paused: 'warning',
  finished_success: 'success',
  finished_fail: 'error',
  canceled: 'default',
};

/** SPEC §4: the status label; 'Em execução' carries a spinning icon. */
export function StatusBadge({ status }: { status: CampaignStatus }) {
  const executing = status === 'executing';
  return (
    <Chip
      size="small"
      data-testid="campaign-status"
      data-status={status}
      color={COLORS[status] ?? 'default'}
      label={t.status[status] ?? status}
      icon={executing ? <Autorenew data-testid="campaign-status-spinner" sx={{ animation: `${spin} 1.2s linear infinite` }} /> : undefined}
    />
  );
}
