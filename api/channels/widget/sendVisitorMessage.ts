import type { AppDeps } from '../../deps';
import { errors } from '../../http/errors';
import { ingestInbound } from '../../inbound/receiveInbound';
import { topics } from '../../realtime/publisher';
import { presentWidgetMessage, type WidgetMessage } from './presentWidgetMessage';
import { widgetFileUrl } from './fileUrl';
import { findWidgetMessage } from './visitorQueries';
import { createVisitor, deleteVisitor, type VisitorSession } from '../../auth/visitorSessions';
import type { ChallengeSolution } from './limits';
import { widgetInbound, type VisitorPayload } from './inbound';
import { inFlightWidgetMessage } from './shed';

export interface VisitorMessageInput {
  identifier: string;
  sender?: string;
  /** The pre-chat form's e-mail and phone, kept on a new contact. */
  email?: string;
  phone?: string;
  /** Delta ops or file entries, already validated. */
  content: unknown[];
  clientMessageId?: string;
  /** A solved first-contact challenge (docs/widget.md "Proof of work"). */
  challenge?: ChallengeSolution;
}

export interface VisitorMessageResult {
  message: WidgetMessage;
  visitor: { id: string; token?: string };
}

/** A name for the contact until the visitor gives one: recognisable in the inbox, never empty. */
function visitorName(visitorId: string): string {
  return `Visitante ${visitorId.slice(0, 4).toUpperCase()}`;
}

/**
 * A visitor's message into the shared inbound pipeline (receiveInbound: contact, conversation, call,
 * realtime to the team). Without a token this is a first contact: a new visitor and session token, let
 * through by admitFirstContact (a challenge past its source's free bound or while the channel is under a
 * burst; a refusal only past the source's hard bound). The message's external id is the client's id when
 * given, so a retried POST stores nothing twice.
 */
export function sendVisitorMessage(
  deps: AppDeps,
  input: VisitorMessageInput,
  auth: { token?: string; ip: string; checkSite?: (allowedSites: readonly string[]) => void },
): Promise<VisitorMessageResult> {
  // Counted for the refusal under overload (shed.ts) while it is stored and published.
  return inFlightWidgetMessage(deps.knex, () => acceptVisitorMessage(deps, input, auth));
}

async function acceptVisitorMessage(
  deps: AppDeps,
  input: VisitorMessageInput,
  auth: { token?: string; ip: string; checkSite?: (allowedSites: readonly string[]) => void },
): Promise<VisitorMessageResult> {
  // The visitor's token or the first-contact admission, through the widget's inbound half (inbound.ts).
  const verified = await widgetInbound.verify(deps, {
    identifier: input.identifier,
    token: auth.token,
    challenge: input.challenge,
    ip: auth.ip,
    checkSite: auth.checkSite,
    contact: { name: input.sender, email: input.email, phone: input.phone },
  });
  if ('visitor' in verified) {
    return { message: await storeVisitorMessage(deps, verified.visitor, { content: input.content, clientMessageId: input.clientMessageId, name: input.sender ?? null }), visitor: { id: verified.visitor.visitorId } };
  }
  const channel = verified.firstContact;
  const created = await createVisitor(deps.knex, channel);
  const visitor: VisitorSession = { workspaceId: channel.workspaceId, channelId: channel.id, channelIdentifier: channel.identifier, visitorId: created.visitorId };
  const newToken: string | undefined = created.token;

  let stored: WidgetMessage;
  try {
    stored = await storeVisitorMessage(deps, visitor, {
      content: input.content,
      clientMessageId: input.clientMessageId,
      name: input.sender ?? (newToken ? visitorName(visitor.visitorId) : null),
      email: input.email,
      phone: input.phone,
    }, { firstContact: true });
  } catch (err) {
    // No conversation, no session: the visitor must not keep a token that leads nowhere.
    if (newToken) await deleteVisitor(deps.knex, visitor.channelId, visitor.visitorId).catch(() => undefined);
    throw err;
  }
  return { message: stored, visitor: { id: visitor.visitorId, ...(newToken ? { token: newToken } : {}) } };
}

/**
 * Hands one visitor message (text or file entries) to receiveInbound and answers it as the widget shows
 * it. Its event comes from the widget's inbound half (inbound.ts `parse`): the external id is namespaced
 * by visitor, so one visitor's client ids never collide with another's.
 */
export async function storeVisitorMessage(
  deps: AppDeps,
  visitor: VisitorSession,
  input: Omit<VisitorPayload, 'visitor'>,
  /** The visitor was created for this message: no conversation to look for (receiveInbound's first-contact statement). */
  options: { firstContact?: boolean } = {},
): Promise<WidgetMessage> {
  const [event] = await widgetInbound.parse(deps, { ...input, visitor });
  const { result, stored } = await ingestInbound(deps, {
    workspaceId: event.channel.workspaceId,
    channelId: event.channel.id,
    externalId: event.externalId!, // the widget's parse always names one
    identity: { externalId: visitor.visitorId, name: input.name ?? null, email: input.email ?? null, phone: input.phone ?? null },
    content: input.content,
    type: 0,
  }, options);
  // A new message is presented from what was stored; a repeated one is read back as the first stored it.
  const row = stored
    ? { id: result.messageId, content: stored.content, type: stored.type, createdAt: stored.createdAt, sender: 'customer', operator: null }
    : await findWidgetMessage(deps.knex, visitor, result.messageId);
  if (!row) throw errors.notFound();
  const message = presentWidgetMessage(row, (key, fileName) => widgetFileUrl(deps, key, fileName));
  if (!result.duplicate) {
    // The visitor's other tabs show their own message too.
    await deps.publisher.publish(topics.widget(visitor.channelIdentifier, visitor.visitorId), 'chat.widgetNewMessage', message);
  }
  return message;
}

/** Visitor text as stored: one Delta insert ending in a newline, like Quill's. */
export function textContent(text: string): unknown[] {
  return [{ insert: text.endsWith('\n') ? text : `${text}\n` }];
}
