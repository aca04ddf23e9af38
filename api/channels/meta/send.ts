import type { ChannelDeps, ChannelRecord, OutboundMessage } from '../adapter';
import { SentParts } from '../outbound/sentParts';
import { ChannelSendError } from '../sendErrors';
import { signedDownloadUrl } from '../../assets/signedUrl';
import { deltaToPlainText, filesOf } from '../content';
import { sendPageMessage } from './client';
import { pageLineOf } from './pageLine';

const HOUR = 3600_000;
export const STANDARD_WINDOW_MS = 24 * HOUR;
export const HUMAN_AGENT_WINDOW_MS = 7 * 24 * HOUR;

export const WINDOW_CLOSED = 'A janela de 24 horas para responder fechou: o Facebook e o Instagram só aceitam respostas até 24 horas depois da última mensagem do cliente. Aguarde o cliente escrever de novo.';
export const NO_CUSTOMER_MESSAGE = 'Este cliente ainda não escreveu para a página: o Facebook e o Instagram só aceitam respostas a quem escreveu.';

export type WindowDecision = { kind: 'response' } | { kind: 'human_agent' } | { kind: 'closed'; reason: string };

/**
 * Meta's messaging window: a reply within 24 hours of the customer's last message is a RESPONSE; between
 * 24 hours and 7 days only a person may answer, with the HUMAN_AGENT tag, and only when the app has that
 * permission (META_HUMAN_AGENT_TAG); anything else is refused here, visibly, without calling Meta.
 */
export function windowDecision(lastCustomerAt: Date | null, now: Date, options: { humanAgentTag: boolean; byPerson: boolean }): WindowDecision {
  if (!lastCustomerAt) return { kind: 'closed', reason: NO_CUSTOMER_MESSAGE };
  const age = now.getTime() - lastCustomerAt.getTime();
  if (age <= STANDARD_WINDOW_MS) return { kind: 'response' };
  if (age <= HUMAN_AGENT_WINDOW_MS && options.humanAgentTag && options.byPerson) return { kind: 'human_agent' };
  return { kind: 'closed', reason: WINDOW_CLOSED };
}

/** Messenger's attachment types by stored file type. */
function attachmentType(mime: string): 'image' | 'video' | 'audio' | 'file' {
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/')) return 'video';
  if (mime.startsWith('audio/')) return 'audio';
  return 'file';
}

/** The parts of a message Meta already accepted, for its next attempt (one Send API call per file). */
const partsSent = new SentParts<string>(24 * HOUR);

/**
 * Send API for a Facebook page or an Instagram account (both through the page's token): the text, then
 * each file as an attachment Meta fetches from a signed download URL of ours (PUBLIC_URL must be reachable
 * by Meta). Instagram replies to a specific message with `reply_to.mid`. The first message id is the
 * external id.
 */
export async function sendThroughPage(deps: ChannelDeps, channel: ChannelRecord, message: OutboundMessage): Promise<{ externalId?: string }> {
  const platform = channel.type === 'instagram' ? 'Instagram' : 'Facebook';
  const line = pageLineOf(deps.config, channel);
  if (!line) throw new ChannelSendError(`Este canal do ${platform} não tem uma página conectada.`, { transient: false, disconnect: true });
  const last = await deps.knex('messages').where({ customerPlatformId: message.conversationId, sender: 'customer' }).max('created_at as at').first();
  const decision = windowDecision(last?.at ? new Date(last.at as string | Date) : null, new Date(), { humanAgentTag: deps.config.metaHumanAgentTag, byPerson: message.operator !== null });
  if (decision.kind === 'closed') throw new ChannelSendError(decision.reason, { transient: false, code: 'window_closed' });
  const envelope: Record<string, unknown> =
    decision.kind === 'human_agent' ? { messaging_type: 'MESSAGE_TAG', tag: 'HUMAN_AGENT' } : { messaging_type: 'RESPONSE' };
  const recipient = { id: message.recipient };
  const replyTo = channel.type === 'instagram' && message.replyToExternalId ? { reply_to: { mid: message.replyToExternalId } } : {};
  const text = deltaToPlainText(message.content);
  const files = filesOf(message.content);
  if (!text && !files.length) throw new ChannelSendError('Mensagem vazia.', { transient: false });
  const parts: Record<string, unknown>[] = [
    ...(text ? [{ text }] : []),
    ...files.map((file) => ({ attachment: { type: attachmentType(file.mime), payload: { url: signedDownloadUrl(deps.config, file.key), is_reusable: false } } })),
  ];
  const ids = partsSent.of(String(message.messageId));
  for (const [i, part] of parts.entries()) {
    if (i < ids.length) continue;
    ids.push(await sendPageMessage(deps.config, platform, line.pageId, line.pageToken, { recipient, ...envelope, ...(i === 0 ? replyTo : {}), message: part }));
  }
  partsSent.done(String(message.messageId));
  return { externalId: ids[0] };
}
