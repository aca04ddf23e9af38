import type { CampaignStatus } from '../models/Campaign';
import type { CampaignNumberStatus } from '../models/CampaignNumber';

/**
 * The pt-BR names of a campaign's and of a number's states, in a module without run-time imports: the
 * campaign screens (ui/src/i18n/ptBR.ts), the status-change errors and the .xlsx/.csv report say the same.
 */
export const CAMPAIGN_STATUS_LABELS: Record<CampaignStatus, string> = {
  waiting_file_processing: 'Aguardando processamento...',
  waiting_processing: 'Aguardando início...',
  executing: 'Em execução',
  paused: 'Pausado',
  finished_success: 'Finalizado',
  finished_fail: 'Finalizado com erro',
  canceled: 'Cancelado',
};

export const NUMBER_STATUS_LABELS: Record<CampaignNumberStatus, string> = {
  pending: 'Pendente',
  sending: 'Enviando',
  sent: 'Enviada',
  delivered: 'Entregue',
  read: 'Lida',
  failed: 'Falhou',
  invalid: 'Inválido',
  duplicate: 'Duplicado',
  opted_out: 'Descadastrado (SAIR)',
  skipped: 'Ignorado',
};
