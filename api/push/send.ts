import webpush from 'web-push';
import type { AppDeps } from '../deps';
import { guardedFetch } from '../http/guardedFetch';
import { operatorsWhoCanSee } from '../policy/conversations';
import { findConversation } from '../conversations/queries';
import { pushLoopbackAllowed } from './testing';

type PushDeps = Pick<AppDeps, 'knex' | 'logger' | 'config'>;

/** What the service worker shows (ui/public/sw.js): the contact's name, a preview and where a tap goes. */
export interface PushPayload {
  title: string;
  body: string;
  url: string;
  tag: string;
  conversationId: number;
}

export interface PushEvent {
  workspaceId: number;
  conversationId: number;
  /** The message the push is about; none: a new conversation without text yet. */
  messageId?: number;
  /** A new conversation (call opened) or a message in one. */
  kind: 'newCall' | 'newMessage';
  /** The agent who wrote it: never told about their own message. */
  authorOperatorId?: number;
}

/** How long the push service keeps an undelivered notification (seconds): a message older than this is stale. */
const TTL_SECONDS = 60 * 60 * 4;
const SEND_TIMEOUT_MS = 10_000;
const PREVIEW_CHARS = 120;

/**
 * The notification's body: the message's own words (its text inserts; a file's name is not a preview), or a
 * pt-BR label of the file it carries, by MIME type.
 */
export function previewOf(message: { text: string | null; content: unknown }): string {
  const items = Array.isArray(message.content) ? (message.content as { insert?: unknown; file?: { mime?: string } }[]) : [];
  const file = items.find((i) => i.file)?.file;
  const words = file ? items.map((i) => (typeof i.insert === 'string' ? i.insert : '')).join('') : (message.text ?? '');
  const text = words.replace(/\s+/g, ' ').trim();
  if (text) return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS - 1)}…` : text;
  const mime = file?.mime ?? '';
  if (mime.startsWith('image/')) return '📷 Imagem';
  if (mime.startsWith('video/')) return '🎥 Vídeo';
  if (mime.startsWith('audio/')) return '🎤 Áudio';
  if (file) return '📎 Arquivo';
  return 'Nova mensagem';
}

/** Where a notification opens the conversation (ui/src/inbox/useInboxRoute.ts: /inbox/:segment/:id). */
export function conversationPath(conversationId: number): string {
  return `/inbox/all/${conversationId}`;
}

/**
 * Who gets a push for this conversation now: the active members who may see it (api/policy/conversations.ts),
 * minus the author; a member who chose 'ausente' only for a conversation assigned to them.
 */
export async function pushRecipients(deps: Pick<AppDeps, 'knex'>, workspaceId: number, conversation: { operatorId: number | null; groupId: number | null }, authorOperatorId?: number): Promise<number[]> {
  const visible = (await operatorsWhoCanSee(deps.knex, workspaceId, conversation)).filter((id) => id !== authorOperatorId);
  if (!visible.length) return [];
  const away: { operatorId: number }[] = await deps.knex('workspace_members').where({ workspaceId, availability: 'ausente' }).whereIn('operator_id', visible).select('operator_id');
  const awaySet = new Set(away.map((r) => r.operatorId));
  return visible.filter((id) => !awaySet.has(id) || conversation.operatorId === id);
}

interface SubscriptionRow {
  id: number;
  operatorId: number;
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** Sends one encrypted push (RFC 8030/8291/8292) through the guarded client; resolves to the service's status. */
async function deliver(deps: PushDeps, sub: SubscriptionRow, payload: string): Promise<number> {
  const details = webpush.generateRequestDetails({ endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } }, payload, {
    vapidDetails: { subject: deps.config.vapidSubject, publicKey: deps.config.vapidPublicKey, privateKey: deps.config.vapidPrivateKey },
    TTL: TTL_SECONDS,
    contentEncoding: 'aes128gcm',
    urgency: 'high',
  });
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(details.headers)) headers[k] = String(v);
  const res = await guardedFetch(details.endpoint, { method: details.method, headers, body: details.body ?? undefined }, { timeoutMs: SEND_TIMEOUT_MS, maxBytes: 64 * 1024, allowLoopbackForTests: pushLoopbackAllowed() });
  return res.status;
}

/**
 * Sends the Web Push notifications of one event to every subscribed device of its recipients. Runs after
 * commit, off the request path (`schedulePush`); a failure is logged and never reaches the caller. A
 * subscription the push service answers 404 or 410 for is gone (RFC 8030 §7.3): its row is deleted.
 * Resolves to how many pushes the services accepted.
 */
export async function sendPush(deps: PushDeps, event: PushEvent): Promise<number> {
  const conversation = await findConversation(deps.knex, event.workspaceId, event.conversationId);
  if (!conversation) return 0;
  const recipients = await pushRecipients(deps, event.workspaceId, conversation, event.authorOperatorId);
  if (!recipients.length) return 0;
  const subs: SubscriptionRow[] = await deps.knex('push_subscriptions')
    .where({ workspaceId: event.workspaceId })
    .whereIn('operator_id', recipients)
    .select('id', 'operator_id', 'endpoint', 'p256dh', 'auth');
  if (!subs.length) return 0;
  const message =
    event.messageId === undefined
      ? undefined
      : ((await deps.knex('messages').where({ workspaceId: event.workspaceId, id: event.messageId }).first('text', 'content')) as { text: string | null; content: unknown } | undefined);
  const name = conversation.name?.trim() || conversation.phone || conversation.email || 'Contato';
  const body: PushPayload = {
    title: event.kind === 'newCall' ? `Nova conversa: ${name}` : name,
    body: message ? previewOf(message) : 'Nova conversa',
    url: conversationPath(event.conversationId),
    tag: `conversation-${event.conversationId}`,
    conversationId: event.conversationId,
  };
  const payload = JSON.stringify(body);
  let accepted = 0;
  await Promise.all(
    subs.map(async (sub) => {
      try {
        const status = await deliver(deps, sub, payload);
        if (status === 404 || status === 410) {
          await deps.knex('push_subscriptions').where({ id: sub.id }).delete();
          deps.logger.info({ subscriptionId: sub.id, status }, 'push subscription gone: deleted');
        } else if (status >= 200 && status < 300) {
          accepted++;
        } else {
          deps.logger.warn({ subscriptionId: sub.id, status }, 'push service refused a notification');
        }
      } catch (err) {
        deps.logger.warn({ err, subscriptionId: sub.id }, 'push delivery failed');
      }
    }),
  );
  return accepted;
}

const inFlight = new Set<Promise<unknown>>();

/**
 * After commit, off the request path: the push goes out in the background like the other after-commit work
 * of receiveInbound (realtime, webhooks), but is not awaited by it, so a slow push service never delays an
 * inbound webhook's answer. Nothing is retried: a lost push is a missed alert, the inbox still has the message.
 */
export function schedulePush(deps: PushDeps, event: PushEvent): void {
  const p = sendPush(deps, event)
    .catch((err: unknown) => deps.logger.warn({ err, conversationId: event.conversationId }, 'push fan-out failed'))
    .finally(() => inFlight.delete(p));
  inFlight.add(p);
}

/** Resolves when every push scheduled so far has settled (graceful stop; tests). */
export async function pushesSettled(): Promise<void> {
  while (inFlight.size) await Promise.all([...inFlight]);
}
