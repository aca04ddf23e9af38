import type { Knex } from 'knex';
import type { Config } from '../../api/config';
import { adapterFor, type ChannelRecord } from '../../api/channels/adapter';
import { whatsappWindow } from '../../api/channels/whatsapp/window';
import { renderTemplate, templatePayload } from '../../api/channels/whatsapp/templates';
import { assertCanSend } from '../../api/billing/limits';
import { AppError } from '../../api/http/errors';
import { ensureOpenCall } from '../../api/conversations/calls';
import { loadChannel, lockConversation, type PlatformRow } from '../../api/conversations/queries';
import { textOf, type ContentItem } from '../../api/conversations/content';
import { MessageStatus, MessageType } from '../../api/models/Message';
import type { ScheduleRecord } from '../../api/schedules/queries';
import { fillVariables, scheduleValues } from '../../api/conversations/messageVariables';

const PREVIEW_CHARS = 200;

/** Why an occurrence was not sent (pt-BR, shown in the list as 'Falhou'). */
export const OCCURRENCE_FAILURES = {
  authorGone: 'Quem agendou não faz mais parte do workspace (ou está desativado).',
  conversationGone: 'A conversa não existe mais.',
  channelGone: 'O canal desta conversa não existe mais.',
  noAdapter: 'Este canal não tem envio disponível.',
  windowClosed: 'A janela de 24 horas do WhatsApp estava fechada na hora do envio. Agende com um modelo aprovado.',
} as const;

/** One message the occurrence stored, and whether the outbound delivery path (channel-send) takes it. */
export interface StoredPart {
  messageId: number;
  remote: boolean;
}

export type Occurrence =
  | { ok: true; conversation: PlatformRow; channel: ChannelRecord; openedCall: boolean; parts: StoredPart[]; author: { id: number; name: string; avatar: string | null } }
  | { ok: false; reason: string };

/** What goes out: a template, or the text and then the file (two messages: a channel message is one or the other). */
function partsOf(row: ScheduleRecord, values: ReturnType<typeof scheduleValues>, scheduled: Record<string, unknown>): { suffix: string; content: ContentItem[]; extra: Record<string, unknown> }[] {
  if (row.template) {
    const fill = (part: Record<string, string>) => Object.fromEntries(Object.entries(part ?? {}).map(([k, v]) => [k, fillVariables(v, values)]));
    const filled = { header: fill(row.template.header), body: fill(row.template.body) };
    const text = renderTemplate(row.template.definition, filled);
    return [{ suffix: 'template', content: [{ insert: `${text}\n` }], extra: { whatsapp: { template: templatePayload(row.template.definition, filled) }, scheduled } }];
  }
  const parts: { suffix: string; content: ContentItem[]; extra: Record<string, unknown> }[] = [];
  const text = fillVariables(row.text, values).replace(/\s+$/, '');
  if (text.trim()) parts.push({ suffix: 'text', content: [{ insert: `${text}\n` }], extra: { scheduled } });
  if (row.file) parts.push({ suffix: 'file', content: [{ file: row.file }], extra: { scheduled } });
  return parts;
}

/**
 * Stores the due occurrence of a schedule in its conversation, inside the caller's transaction (which holds
 * the schedule's row lock): as a COMMON message of its author, marked `extra_data.scheduled`, under the
 * idempotency key `{key}:{part}` (so a retried activity can never store it twice), `pending` on channels with
 * a remote side (docs/outbound.md). A resolved conversation gets a new call, numbered now so `{{protocolo}}`
 * can be filled. What would make the send wrong (the author gone, an expired plan, a WhatsApp Cloud window
 * closed without a template) is answered as a failure with its reason, and nothing is stored.
 */
export async function storeOccurrence(trx: Knex.Transaction, config: Config, row: ScheduleRecord, key: string, now: Date): Promise<Occurrence> {
  const fail = (reason: string): Occurrence => ({ ok: false, reason });
  const member = row.operatorId === null ? undefined : await trx('workspace_members').where({ workspaceId: row.workspaceId, operatorId: row.operatorId }).first('is_active');
  const author = member?.isActive ? await trx('operators').where({ id: row.operatorId! }).first('id', 'name', 'avatar') : undefined;
  if (!author) return fail(OCCURRENCE_FAILURES.authorGone);
  try {
    await assertCanSend(trx, row.workspaceId, now);
  } catch (err) {
    if (err instanceof AppError) return fail(err.entries[0]?.descriptions[0] ?? err.message);
    throw err;
  }
  const cp = await lockConversation(trx, row.workspaceId, row.customerPlatformId);
  if (!cp) return fail(OCCURRENCE_FAILURES.conversationGone);
  const channel = await loadChannel(trx, row.workspaceId, cp.channelId).catch(() => undefined);
  if (!channel) return fail(OCCURRENCE_FAILURES.channelGone);
  const adapter = adapterFor(channel.type);
  if (!adapter) return fail(OCCURRENCE_FAILURES.noAdapter);
  if (!row.template && channel.type === 'whatsapp') {
    const window = await whatsappWindow({ knex: trx as unknown as Knex, config }, cp.id, channel, now.getTime());
    if (window.cloud && !window.open) return fail(OCCURRENCE_FAILURES.windowClosed);
  }

  const call = await ensureOpenCall(trx, cp);
  // The protocol of a call opened here is given at commit; {{protocolo}} needs it now.
  if (call.opened) await trx.raw('SET CONSTRAINTS calls_protocol_at_commit IMMEDIATE');
  const [callRow, customer] = await Promise.all([trx('calls').where({ id: call.callId }).first('protocol'), trx('customers').where({ id: cp.customerId }).first('name')]);
  const values = scheduleValues(customer?.name, callRow?.protocol);
  const scheduled = { id: row.id, by: { id: author.id, name: author.name } };
  const remote = adapter.remote === true;
  const parts: StoredPart[] = [];
  let last = { text: '', createdAt: now };
  for (const [i, part] of partsOf(row, values, scheduled).entries()) {
    // A millisecond apart: the text is listed before its file.
    const createdAt = new Date(now.getTime() + i);
    const text = textOf(part.content);
    const [message] = await trx('messages')
      .insert({
        workspaceId: row.workspaceId,
        customerPlatformId: cp.id,
        callId: call.callId,
        content: JSON.stringify(part.content),
        text,
        type: MessageType.COMMON,
        status: MessageStatus.SENT,
        operatorId: author.id,
        sender: 'operator',
        isMedia: 'file' in part.content[0]!,
        deliveryState: remote ? 'pending' : null,
        idempotencyKey: `${key}:${part.suffix}`,
        extraData: JSON.stringify(part.extra),
        createdAt,
      })
      .returning('id');
    parts.push({ messageId: Number(message.id), remote });
    last = { text, createdAt };
  }
  // An agent's message (api/inbox/sendMessage.ts): it answers a waiting customer (TME/TMR) and reopens a resolved conversation.
  await trx('calls')
    .where({ id: call.callId })
    .update({
      firstResponseAt: trx.raw('coalesce(first_response_at, ?)', [now]),
      responseCount: trx.raw('response_count + (CASE WHEN waiting_since IS NULL THEN 0 ELSE 1 END)'),
      responseTimeSumMs: trx.raw('response_time_sum_ms + coalesce(greatest(0, (extract(epoch FROM ?::timestamptz - waiting_since) * 1000))::bigint, 0)', [now]),
      waitingSince: null,
    });
  await trx('customer_platforms')
    .where({ id: cp.id })
    .update({
      lastMessage: JSON.stringify({ text: last.text.slice(0, PREVIEW_CHARS), type: MessageType.COMMON, sender: 'operator', createdAt: last.createdAt.toISOString() }),
      lastMessageAt: trx.raw('greatest(last_message_at, ?)', [last.createdAt]),
      isFinished: false,
      currentCallId: call.callId,
      updatedAt: trx.fn.now(),
    });
  return { ok: true, conversation: cp, channel, openedCall: call.opened, parts, author };
}
