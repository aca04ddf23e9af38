import type { Knex } from 'knex';
import { normalizeCampaignPhone } from './phone';

/**
 * Opt-out words (anti-ban practice, docs/campaigns.md): a WhatsApp customer whose whole message is one of
 * them is skipped by the workspace's later campaigns. CAMPAIGN_OPT_OUT_WORDS (comma-separated) replaces the
 * default list; compared without case and accents.
 */
const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').trim().toUpperCase();
export const OPT_OUT_WORDS: readonly string[] = (process.env.CAMPAIGN_OPT_OUT_WORDS ?? 'SAIR,PARAR,CANCELAR,DESCADASTRAR,STOP')
  .split(',')
  .map(fold)
  .filter(Boolean);

export function isOptOut(text: string): boolean {
  const t = fold(text).replace(/[.!]+$/, '');
  return t.length <= 40 && OPT_OUT_WORDS.includes(t);
}

/**
 * The customer's phone digits from a WhatsApp identity: the Cloud `wa_id` or the QR phone JID. Null: no
 * campaign reply is possible (the inbound statement then needs no campaign lookup).
 */
export function phoneOf(identity: { externalId: string; phone?: string | null }): string | null {
  const jid = /^(\d{8,15})(?::\d+)?@s\.whatsapp\.net$/.exec(identity.externalId)?.[1];
  const raw = jid ?? (/^\d{8,15}$/.test(identity.externalId) ? identity.externalId : identity.phone ?? null);
  return raw ? normalizeCampaignPhone(raw.startsWith('+') ? raw : `+${raw.replace(/\D/g, '')}`) : null;
}

/**
 * Called by the inbound pipeline before a customer message is stored (one indexed query for WhatsApp
 * lines, none otherwise): answers the campaign the customer last received, to tag the message with, and
 * records an opt-out word.
 */
export async function campaignOfReply(
  trx: Knex.Transaction,
  msg: { workspaceId: number; channelId: number; identity: { externalId: string; phone?: string | null } },
  text: string,
): Promise<{ id: number; name: string } | null> {
  const phone = phoneOf(msg.identity);
  if (!phone) return null;
  const row = await trx('campaign_numbers as cn')
    .join('campaigns as c', 'c.id', 'cn.campaign_id')
    .join('channels as ch', (j) => j.on('ch.id', trx.raw('?', [msg.channelId])).andOn('ch.type', trx.raw('?', ['whatsapp'])))
    .where('cn.workspace_id', msg.workspaceId)
    .where('cn.normalized', phone)
    .whereNotNull('cn.external_id')
    .orderBy('cn.sent_at', 'desc')
    .first('c.id', 'c.name');
  if (isOptOut(text)) {
    const channel = await trx('channels').where({ id: msg.channelId, workspaceId: msg.workspaceId }).first('type');
    if (channel?.type === 'whatsapp') {
      await trx('campaign_opt_outs').insert({ workspaceId: msg.workspaceId, phone, word: fold(text).slice(0, 40) }).onConflict(['workspace_id', 'phone']).ignore();
    }
  }
  return row ? { id: row.id, name: row.name } : null;
}
