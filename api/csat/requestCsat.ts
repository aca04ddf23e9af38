import type { Knex } from 'knex';
import type { Config } from '../config';
import { adapterFor, type ChannelRecord } from '../channels/adapter';
import { whatsappWindow } from '../channels/whatsapp/window';
import { renderTemplate, templatePayload } from '../channels/whatsapp/templates';
import { windowDecision } from '../channels/meta/send';
import { isMetaChannel } from '../channels/meta/window';
import { loadChannel, type PlatformRow } from '../conversations/queries';
import { MessageStatus, MessageType } from '../models/Message';
import { fillVariables, scheduleValues } from '../conversations/messageVariables';
import { CSAT_ANSWER_DAYS, csatInstructions } from './schema';
import { csatSettingsOf, isCloudLine, type CsatSettings } from './settings';

const DAY_MS = 86_400_000;

/** Why a question was not sent (pt-BR): the note left in the conversation and `calls.csat_note`. */
export const CSAT_SKIPPED = {
  windowClosed:
    'A janela de 24 horas do WhatsApp está fechada e nenhum modelo aprovado foi escolhido para a pesquisa nas configurações do canal.',
  noAdapter: 'Este canal não tem envio disponível.',
} as const;

/** The note's text in the conversation (a system line only the team sees). */
export const csatSkippedNote = (reason: string) => `Pesquisa de satisfação não enviada: ${reason}`;

/** `extra_data.csat` of the question message (docs/csat.md): what the widget and the inbox show of it. */
export interface CsatQuestionExtra {
  kind: 'question';
  callId: number;
  scale: CsatSettings['scale'];
  thanks: string;
  /** Until when an answer counts (ISO). */
  until: string;
  rating?: number;
  comment?: string | null;
  answeredAt?: string;
}

/** What the resolve left to do after its commit. */
export interface CsatRequested {
  conversation: PlatformRow;
  channel: ChannelRecord;
  /** The question, or the note saying why it was not sent. */
  messageId: number;
  sent: boolean;
  /** Goes through channel-send (a channel with a remote side); otherwise the widget gets it directly. */
  remote: boolean;
}

interface Question {
  text: string;
  extra: Record<string, unknown>;
}

/**
 * The question for this channel now: text (the widget draws its own buttons under it; other channels add
 * how to answer with a digit), or the configured approved template on a WhatsApp Cloud line whose 24-hour
 * window has closed. A string is the reason it cannot go out.
 */
async function questionFor(trx: Knex.Transaction, config: Config, cp: PlatformRow, callId: number, channel: ChannelRecord, s: CsatSettings, now: Date): Promise<Question | string> {
  const adapter = adapterFor(channel.type);
  if (!adapter) return CSAT_SKIPPED.noAdapter;
  if (isCloudLine(channel)) {
    const window = await whatsappWindow({ knex: trx as unknown as Knex, config }, cp.id, channel, now.getTime());
    if (!window.open) {
      if (!s.template) return CSAT_SKIPPED.windowClosed;
      const [call, customer] = await Promise.all([trx('calls').where({ id: callId }).first('protocol'), trx('customers').where({ id: cp.customerId }).first('name')]);
      const values = scheduleValues(customer?.name, call?.protocol);
      const fill = (part: Record<string, string>) => Object.fromEntries(Object.entries(part ?? {}).map(([k, v]) => [k, fillVariables(v, values)]));
      const filled = { header: fill(s.template.header), body: fill(s.template.body) };
      return { text: `${renderTemplate(s.template.definition, filled)}\n`, extra: { whatsapp: { template: templatePayload(s.template.definition, filled) } } };
    }
  }
  if (isMetaChannel(channel)) {
    // A survey is not a person writing: Meta's HUMAN_AGENT stretch does not apply to it.
    const last = await trx('messages').where({ customerPlatformId: cp.id, sender: 'customer' }).max('created_at as at').first();
    const decision = windowDecision(last?.at ? new Date(last.at as string | Date) : null, now, { humanAgentTag: false, byPerson: false });
    if (decision.kind === 'closed') return decision.reason;
  }
  if (channel.type === 'widget') return { text: `${s.question}\n`, extra: {} };
  return { text: `${s.question}\n${csatInstructions(s.scale)}\n`, extra: {} };
}

/**
 * Inside the transaction of 'Resolver' (api/inbox/setConversationStatus.ts), after the call is finished: when
 * the channel's survey is on, the question is stored in that call — a BOT message under the key
 * `csat:{callId}`, `pending` for the outbound delivery path on channels with a remote side (a call is finished once, under
 * the conversation's lock, so the key is never taken twice) — and the
 * conversation notes the call awaiting an answer until CSAT_ANSWER_DAYS later. When it cannot go out (a
 * WhatsApp Cloud window closed with no template chosen, Meta's window closed), a system line says why and the
 * call keeps the reason (`csat_state = 'skipped'`). Off: nothing, and no statement but the channel's read.
 */
export async function requestCsat(trx: Knex.Transaction, config: Config, cp: PlatformRow, callId: number, now = new Date()): Promise<CsatRequested | undefined> {
  const row = await trx('channels').where({ workspaceId: cp.workspaceId, id: cp.channelId }).first('csat');
  const settings = csatSettingsOf(row?.csat);
  if (!settings.enabled) return undefined;
  const channel = await loadChannel(trx, cp.workspaceId, cp.channelId);
  const question = await questionFor(trx, config, cp, callId, channel, settings, now);
  const base = { workspaceId: cp.workspaceId, customerPlatformId: cp.id, callId, status: MessageStatus.SENT, createdAt: now };

  if (typeof question === 'string') {
    const text = csatSkippedNote(question);
    const [note] = await trx('messages')
      .insert({ ...base, content: JSON.stringify([{ insert: `${text}\n` }]), text, type: MessageType.SYSTEM, sender: 'system', idempotencyKey: `csat:${callId}`, extraData: JSON.stringify({ csat: { kind: 'skipped', callId, reason: question } }) })
      .returning('id');
    await trx('calls').where({ id: callId }).update({ csatState: 'skipped', csatRequestedAt: now, csatNote: question.slice(0, 300), csatMessageId: note.id });
    return { conversation: cp, channel, messageId: Number(note.id), sent: false, remote: false };
  }

  const until = new Date(now.getTime() + CSAT_ANSWER_DAYS * DAY_MS);
  const remote = adapterFor(channel.type)?.remote === true;
  const csat: CsatQuestionExtra = { kind: 'question', callId, scale: settings.scale, thanks: settings.thanks, until: until.toISOString() };
  const [message] = await trx('messages')
    .insert({
      ...base,
      content: JSON.stringify([{ insert: question.text }]),
      text: question.text,
      type: MessageType.BOT,
      sender: 'bot',
      idempotencyKey: `csat:${callId}`,
      deliveryState: remote ? 'pending' : null,
      extraData: JSON.stringify({ ...question.extra, csat }),
    })
    .returning('id');
  await trx('calls').where({ id: callId }).update({ csatState: 'sent', csatRequestedAt: now, csatMessageId: message.id });
  await trx('customer_platforms').where({ id: cp.id }).update({ csatCallId: callId, csatUntil: until });
  return { conversation: cp, channel, messageId: Number(message.id), sent: true, remote };
}
