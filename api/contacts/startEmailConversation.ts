import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../deps';
import { errors } from '../http/errors';
import { MessageType } from '../models/Message';
import type { ConversationViewer } from '../policy/conversations';
import { threadIdentity } from '../channels/email/addresses';
import { sendMessage } from '../inbox/sendMessage';
import type { EmailConversationReq } from './schema';
import { findVisibleCustomer } from '../customers/queries';

export const NO_CONTACT_EMAIL = 'Este contato não tem e-mail.';
export const NOT_AN_EMAIL_CHANNEL = 'Selecione um canal de e-mail.';

/**
 * POST /customer/:id/email-conversation (docs/contacts.md "Iniciar conversa"): a new mail thread with the
 * contact on an e-mail channel, the e-mail counterpart of the inbox's new WhatsApp message. The conversation is
 * a fresh thread of the contact's address (`{address}#{thread}`, api/channels/email/addresses.ts), handed to
 * the agent who started it; the first message carries the subject and goes out through the same delivery path
 * as any reply, so the customer's answer (In-Reply-To our Message-ID) threads back into it.
 */
export async function startEmailConversation(deps: AppDeps, viewer: ConversationViewer, customerId: number, input: EmailConversationReq): Promise<{ id: number }> {
  const customer = await findVisibleCustomer(deps.knex, viewer, customerId);
  if (!customer.email) throw errors.field('email', NO_CONTACT_EMAIL);
  const channel: { id: number; type: string } | undefined = await deps.knex('channels').where({ workspaceId: viewer.workspaceId, id: input.workspacePlatformId }).first('id', 'type');
  if (!channel) throw errors.notFound('Canal não encontrado.');
  if (channel.type !== 'email') throw errors.field('workspacePlatformId', NOT_AN_EMAIL_CHANNEL);
  const [row] = (await deps.knex('customer_platforms')
    .insert({
      workspaceId: viewer.workspaceId,
      channelId: channel.id,
      customerId: customer.id,
      externalId: threadIdentity(customer.email.toLowerCase(), `<inicio-${randomUUID()}@balcao>`),
      operatorId: viewer.operatorId,
    })
    .returning('id')) as { id: number }[];
  await sendMessage(deps, viewer, { id: row!.id, content: [{ insert: `${input.content}\n` }], type: MessageType.COMMON }, undefined, { subject: input.subject });
  return { id: row!.id };
}
