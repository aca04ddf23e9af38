import type { Knex } from 'knex';
import { applyCampaignReceipt, type CampaignReceipt } from '../campaigns/receipts';

/**
 * A WhatsApp Cloud status that names no inbox message is a campaign send's receipt (docs/campaigns.md): the
 * inbound pipeline hands it to campaigns, so the channel does not reach up into campaigns itself.
 */
export function applyForeignReceipt(knex: Knex, workspaceId: number, status: CampaignReceipt): Promise<void> {
  return applyCampaignReceipt(knex, workspaceId, status);
}
