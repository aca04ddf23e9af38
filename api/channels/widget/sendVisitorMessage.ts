import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../../deps';
import { errors } from '../../http/errors';
import { ingestInbound } from '../../inbound/receiveInbound';
import { topics } from '../../realtime/publisher';
import { presentWidgetMessage, type WidgetMessage } from './presentWidgetMessage';
import { widgetFileUrl } from './fileUrl';
import { findWidgetChannel, findWidgetMessage } from './visitorQueries';
import { createVisitor, deleteVisitor, findVisitorByToken, type VisitorSession } from '../../auth/visitorSessions';
import { admitFirstContact, limitVisitor, type ChallengeSolution } from './limits';
import { invalidVisitorSession } from './visitorAuth';

export interface VisitorMessageInput {
  identifier: string;
  sender?: string;
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
export async function sendVisitorMessage(
  deps: AppDeps,
  input: VisitorMessageInput,
  auth: { token?: string; ip: string },
): Promise<VisitorMessageResult> {
  // A returning visitor's token already names its channel: one lookup instead of two (bench: ingest).
  const known = auth.token ? await findVisitorByToken(deps.knex, auth.token) : undefined;
  if (known && known.channelIdentifier === input.identifier) {
    limitVisitor(deps, 'message', known.visitorId);
    return { message: await storeVisitorMessage(deps, known, { content: input.content, clientMessageId: input.clientMessageId, name: input.sender ?? null }), visitor: { id: known.visitorId } };
  }

  const channel = await findWidgetChannel(deps.knex, input.identifier);
  if (!channel) throw errors.notFound('Widget não encontrado.');

  let visitor: VisitorSession;
  let newToken: string | undefined;
  if (auth.token) {
    // The token was looked up above: one that names no session is a 401.
    if (!known) throw invalidVisitorSession();
    visitor = known;
    // A session of another widget is no session here.
    if (visitor.channelId !== channel.id) throw errors.authentication('Sessão do visitante inválida para este widget.');
    limitVisitor(deps, 'message', visitor.visitorId);
  } else {
    admitFirstContact(deps, auth.ip, channel.id, input.challenge);
    const created = await createVisitor(deps.knex, channel);
    visitor = { workspaceId: channel.workspaceId, channelId: channel.id, channelIdentifier: channel.identifier, visitorId: created.visitorId };
    newToken = created.token;
  }

  let stored: WidgetMessage;
  try {
    stored = await storeVisitorMessage(deps, visitor, {
      content: input.content,
      clientMessageId: input.clientMessageId,
      name: input.sender ?? (newToken ? visitorName(visitor.visitorId) : null),
    });
  } catch (err) {
    // No conversation, no session: the visitor must not keep a token that leads nowhere.
    if (newToken) await deleteVisitor(deps.knex, visitor.channelId, visitor.visitorId).catch(() => undefined);
    throw err;
  }
  return { message: stored, visitor: { id: visitor.visitorId, ...(newToken ? { token: newToken } : {}) } };
}

/**
 * Hands one visitor message (text or file entries) to receiveInbound and answers it as the widget shows
 * it. The external id is namespaced by visitor, so one visitor's client ids never collide with another's.
 */
export async function storeVisitorMessage(
  deps: AppDeps,
  visitor: VisitorSession,
  input: { content: unknown[]; clientMessageId?: string; name?: string | null },
): Promise<WidgetMessage> {
  const { result, stored } = await ingestInbound(deps, {
    workspaceId: visitor.workspaceId,
    channelId: visitor.channelId,
    externalId: `v:${visitor.visitorId}:${input.clientMessageId ?? randomUUID()}`,
    identity: { externalId: visitor.visitorId, name: input.name ?? null },
    content: input.content,
    type: 0,
  });
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
