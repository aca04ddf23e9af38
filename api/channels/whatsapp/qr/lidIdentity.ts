import type { Knex } from 'knex';
import { isJidUser, isLidUser, jidNormalizedUser } from 'baileys';
import type { QrLine } from './sessionQueue';

/**
 * One person, one customer (docs/channels/whatsapp.md "Identity"). WhatsApp addresses a person either by
 * their phone JID (`5511…@s.whatsapp.net`) or by a LID (`…@lid`). A conversation's external id is the phone
 * JID whenever the line knows it, else the LID. When WhatsApp reveals that a LID belongs to a phone, the pair
 * is stored and a conversation that began under the LID is renamed to the phone JID, or, when the phone
 * already had its own conversation, merged into it (calls, messages, bot sessions, favourites), so the
 * history is never split.
 */

/** The phone JID the line knows for `jid` (a LID with a stored mapping), else `jid` without its device. */
export async function resolveJid(db: Knex | Knex.Transaction, line: QrLine, jid: string): Promise<string> {
  const user = jidNormalizedUser(jid);
  if (!isLidUser(user)) return user;
  const row = await db('whatsapp_lid_mappings').where({ workspaceId: line.workspaceId, channelId: line.channelId, lid: user }).first('phone_jid');
  return row?.phoneJid ?? user;
}

/** The phone number (digits) of a phone JID, for the customer's record; none for a LID. */
export function phoneOfJid(jid: string): string | null {
  return isJidUser(jid) ? jid.split('@')[0] : null;
}

/**
 * Stores `lid` ↔ `phoneJid` for the line and folds a conversation held under the LID into the phone's.
 * Idempotent: revealing a known pair again changes nothing. Answers whether a conversation moved.
 */
export async function recordLidMapping(knex: Knex, line: QrLine, lidJid: string, phoneJidRaw: string): Promise<boolean> {
  const lid = jidNormalizedUser(lidJid);
  const phoneJid = jidNormalizedUser(phoneJidRaw);
  if (!isLidUser(lid) || !isJidUser(phoneJid)) return false;
  const scope = { workspaceId: line.workspaceId, channelId: line.channelId };
  return knex.transaction(async (trx) => {
    await trx('whatsapp_lid_mappings').insert({ ...scope, lid, phoneJid }).onConflict(['workspace_id', 'channel_id', 'lid']).merge({ phoneJid });
    // Both rows locked in id order, as every other writer of a conversation locks one.
    const rows: { id: number; externalId: string; customerId: number; currentCallId: number | null; lastMessageAt: Date | null }[] = await trx('customer_platforms')
      .where(scope)
      .whereIn('external_id', [lid, phoneJid])
      .orderBy('id')
      .forUpdate()
      .select('id', 'external_id', 'customer_id', 'current_call_id', 'last_message_at');
    const fromLid = rows.find((r) => r.externalId === lid);
    if (!fromLid) return false;
    const byPhone = rows.find((r) => r.externalId === phoneJid);
    if (!byPhone) {
      await trx('customer_platforms').where({ id: fromLid.id }).update({ externalId: phoneJid, updatedAt: trx.fn.now() });
      await trx('customers').where({ id: fromLid.customerId, workspaceId: line.workspaceId }).whereNull('phone').update({ phone: phoneOfJid(phoneJid) });
      return true;
    }
    await mergeConversation(trx, line.workspaceId, fromLid, byPhone);
    return true;
  });
}

interface PlatformRef {
  id: number;
  customerId: number;
  currentCallId: number | null;
}

async function openCallOf(trx: Knex.Transaction, platformId: number): Promise<number | null> {
  const row = await trx('calls').where({ customerPlatformId: platformId, isFinished: false }).first('id');
  return row?.id ?? null;
}

/** Moves everything of conversation `from` into `into`, then deletes `from` (and its contact if it has no other). */
async function mergeConversation(trx: Knex.Transaction, workspaceId: number, from: PlatformRef, into: PlatformRef): Promise<void> {
  const fromOpen = await openCallOf(trx, from.id);
  const intoOpen = await openCallOf(trx, into.id);
  await trx('customer_platforms').where({ id: from.id }).update({ currentCallId: null });
  if (fromOpen && intoOpen) {
    // One open call per conversation: the LID's running call joins the phone's.
    await trx('messages').where({ customerPlatformId: from.id, callId: fromOpen }).update({ customerPlatformId: into.id, callId: intoOpen });
    await trx('bot_sessions').where({ customerPlatformId: from.id }).delete();
    await trx('calls').where({ id: fromOpen }).delete();
  }
  // Calls and their messages move in one statement: the messages → calls key is checked at its end.
  await trx.raw(
    `WITH moved_calls AS (UPDATE calls SET customer_platform_id = :into WHERE customer_platform_id = :from AND workspace_id = :ws RETURNING id)
     UPDATE messages SET customer_platform_id = :into WHERE customer_platform_id = :from AND workspace_id = :ws`,
    { into: into.id, from: from.id, ws: workspaceId },
  );
  await trx.raw(
    `UPDATE bot_sessions SET customer_platform_id = :into WHERE customer_platform_id = :from AND workspace_id = :ws
       AND NOT (status = 'active' AND EXISTS (SELECT 1 FROM bot_sessions b WHERE b.customer_platform_id = :into AND b.status = 'active'))`,
    { into: into.id, from: from.id, ws: workspaceId },
  );
  await trx.raw(
    `INSERT INTO customer_platform_favorites (workspace_id, operator_id, customer_platform_id)
     SELECT workspace_id, operator_id, :into FROM customer_platform_favorites WHERE customer_platform_id = :from ON CONFLICT DO NOTHING`,
    { into: into.id, from: from.id },
  );
  const open = intoOpen ?? fromOpen;
  await trx.raw(
    `UPDATE customer_platforms p SET current_call_id = :open, is_finished = (:open::bigint IS NULL AND p.is_finished),
       has_new_messages = p.has_new_messages OR f.has_new_messages,
       last_message_at = greatest(p.last_message_at, f.last_message_at),
       last_message = CASE WHEN f.last_message_at > p.last_message_at OR p.last_message_at IS NULL THEN f.last_message ELSE p.last_message END,
       updated_at = now()
     FROM customer_platforms f WHERE p.id = :into AND f.id = :from`,
    { open, into: into.id, from: from.id },
  );
  await trx('customer_platforms').where({ id: from.id }).delete();
  if (from.customerId !== into.customerId) {
    const others = await trx('customer_platforms').where({ customerId: from.customerId }).first('id');
    if (!others) await trx('customers').where({ id: from.customerId, workspaceId }).delete();
  }
}
