import type { Knex } from 'knex';

/** What a campaign reads of a Cloud API status (its `statuses[]` entry): the message id, the state and Meta's errors. */
export interface CampaignReceipt {
  id: string;
  status: string;
  errors?: { code?: number; title?: string; message?: string; error_data?: { details?: string } }[];
}

/**
 * A Cloud API status for a message that is not an inbox message: a campaign send (docs/campaigns.md).
 * States only move forward (receipts arrive out of order): sent → delivered → read; `failed` after `sent`
 * (Meta refused it later, e.g. an unknown number) counts as a failure of the campaign.
 */
export async function applyCampaignReceipt(
  knex: Knex,
  workspaceId: number,
  s: CampaignReceipt,
): Promise<void> {
  const q = () => knex('campaign_numbers').where({ workspaceId, externalId: s.id });
  if (s.status === 'delivered') {
    await q().where('status', 'sent').update({ status: 'delivered', deliveredAt: knex.fn.now() });
  } else if (s.status === 'read') {
    await q().whereIn('status', ['sent', 'delivered']).update({ status: 'read', readAt: knex.fn.now(), deliveredAt: knex.raw('coalesce(delivered_at, now())') });
  } else if (s.status === 'failed') {
    const e = s.errors?.[0];
    const reason = `O WhatsApp não entregou a mensagem: ${e?.error_data?.details ?? e?.message ?? e?.title ?? 'erro desconhecido'}${e?.code ? ` (${e.code})` : ''}`;
    await knex.transaction(async (trx) => {
      const rows: { campaignId: number }[] = await trx('campaign_numbers').where({ workspaceId, externalId: s.id }).where('status', 'sent').update({ status: 'failed', error: reason }).returning('campaign_id');
      for (const r of rows) await trx('campaigns').where({ id: r.campaignId }).increment('total_numbers_failed', 1);
    });
  }
}
