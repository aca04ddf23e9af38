import type { Knex } from 'knex';
import { adapterFor, type ChannelDeps, type ChannelRecord } from '../../api/channels/adapter';
import { ChannelSendError } from '../../api/channels/sendErrors';
import { setChannelStatus } from '../../api/channels/channelStatus';
import { outboundIdempotencyKey } from '../../api/channels/outbound/keys';
import { loadChannel, isUniqueViolation } from '../../api/conversations/queries';
import { publishMessageStatus } from '../../api/conversations/fanout';
import { MessageStatus } from '../../api/models/Message';
import type { QrLiveSockets } from './whatsapp/liveSockets';
import type { ActivityDeps } from '../deps';
import { heartbeatWhile } from '../temporal/heartbeat';

export interface ChannelSendOptions {
  /** Attempts before a transient failure becomes a failed message. */
  maxAttempts: number;
  /** Backoff after the first failed attempt, doubled per attempt up to maxDelayMs. */
  initialDelayMs: number;
  maxDelayMs: number;
  /** How long to wait when another attempt holds the message (the retry route, a replaced run). */
  busyWaitMs: number;
}

/**
 * How often an attempt heartbeats; the workflow's heartbeat timeout (SEND_HEARTBEAT_TIMEOUT,
 * workflows/channels/channelSend.ts) is several times this.
 */
export const SEND_HEARTBEAT_MS = 2_000;

/** ~8 attempts over about 20 minutes: 5 s, 10 s, 20 s … capped at 10 min. */
export const DEFAULT_CHANNEL_SEND_OPTIONS: ChannelSendOptions = { maxAttempts: 8, initialDelayMs: 5_000, maxDelayMs: 10 * 60_000, busyWaitMs: 1_000 };

/**
 * `route`: the channel's connection lives in another worker (a WhatsApp QR socket): the workflow runs the
 * attempt again on that worker's own task queue (docs/outbound.md "WhatsApp QR lines").
 */
export type ChannelSendResult = { outcome: 'done'; state: 'sent' | 'failed' | 'missing' } | { outcome: 'retry'; delayMs: number } | { outcome: 'route'; taskQueue: string };

export interface ChannelSendInput {
  messageId: number;
  /** Already routed (or routing gave up): send from here whatever the adapter's route says. */
  routed?: boolean;
}

interface Row {
  id: number;
  workspaceId: number;
  customerPlatformId: number;
  externalId: string | null;
  content: unknown[];
  text: string;
  type: number;
  status: number;
  operatorId: number | null;
  createdAt: Date;
  replyToId: number | null;
  deliveryState: string | null;
  deliveryAttempts: number;
}

type After = { kind: 'status'; state: 'sent' | 'failed'; error: string | null } | null;

/**
 * One attempt of one outbound message (docs/outbound.md). The message row is locked for the attempt, so
 * the retry route or a second run of the workflow waits instead of sending beside it. A row that already
 * carries an external id was sent by an earlier attempt whose bookkeeping was lost: it is marked sent
 * without calling the provider again. Transient failures come back as `retry` with the backoff to sleep;
 * permanent ones (and the last transient one) mark the message failed with the adapter's pt-BR reason.
 */
export const sendChannelMessage =
  (deps: ActivityDeps, options: Partial<ChannelSendOptions> = {}, qrSockets?: QrLiveSockets) =>
  (input: ChannelSendInput): Promise<ChannelSendResult> =>
    // Heartbeating while the attempt runs: a worker killed in the middle of a send stops heartbeating and
    // Temporal retries the attempt on another worker within the workflow's heartbeat timeout.
    heartbeatWhile(SEND_HEARTBEAT_MS, () => attemptSend(deps, { ...DEFAULT_CHANNEL_SEND_OPTIONS, ...options }, qrSockets, input));

async function attemptSend(deps: ActivityDeps, o: ChannelSendOptions, qrSockets: QrLiveSockets | undefined, { messageId, routed }: ChannelSendInput): Promise<ChannelSendResult> {
  if (!deps.config) throw new Error('sendChannelMessage needs the process config');
  const channelDeps: ChannelDeps = { knex: deps.knex, logger: deps.logger, publisher: deps.publisher, config: deps.config, qrSockets };
  let conversation: { id: number; workspaceId: number; operatorId: number | null; groupId: number | null } | undefined;
  let channel: ChannelRecord | undefined;
  let disconnect = false;

  const outcome = await deps.knex.transaction(async (trx): Promise<{ result: ChannelSendResult; after: After }> => {
    const row: Row | undefined = await trx('messages')
      .where({ id: messageId })
      .forUpdate()
      .skipLocked()
      .first('id', 'workspace_id', 'customer_platform_id', 'external_id', 'content', 'text', 'type', 'status', 'operator_id', 'created_at', 'reply_to_id', 'delivery_state', 'delivery_attempts');
    if (!row) {
      const exists = await trx('messages').where({ id: messageId }).first('id');
      return { result: exists ? { outcome: 'retry', delayMs: o.busyWaitMs } : { outcome: 'done', state: 'missing' }, after: null };
    }
    if (row.deliveryState !== 'pending') return { result: { outcome: 'done', state: row.deliveryState === 'failed' ? 'failed' : 'sent' }, after: null };
    const cp = await trx('customer_platforms').where({ id: row.customerPlatformId }).first('id', 'workspace_id', 'channel_id', 'external_id', 'operator_id', 'group_id');
    conversation = cp;
    if (row.externalId) return markSent(trx, row, null);

    channel = await loadChannel(trx, row.workspaceId, cp.channelId);
    const adapter = adapterFor(channel.type);
    if (!adapter) return markFailed(trx, row, 'Este canal não tem envio disponível.');
    if (!routed && adapter.route) {
      const taskQueue = await adapter.route(channelDeps, channel);
      if (taskQueue) return { result: { outcome: 'route', taskQueue }, after: null };
    }
    const [operator, reply] = await Promise.all([
      row.operatorId ? trx('operators').where({ id: row.operatorId }).first('id', 'name', 'avatar') : undefined,
      row.replyToId ? trx('messages').where({ id: row.replyToId }).first('external_id') : undefined,
    ]);

    let externalId: string | undefined;
    try {
      const result = await adapter.send(channelDeps, channel, {
        messageId: row.id,
        conversationId: cp.id,
        recipient: cp.externalId,
        content: row.content,
        text: row.text,
        replyToExternalId: reply?.externalId ?? null,
        operator: operator ? { id: operator.id, name: operator.name, avatar: operator.avatar } : null,
        createdAt: row.createdAt,
        type: row.type,
        idempotencyKey: outboundIdempotencyKey(row.id),
      });
      externalId = result?.externalId;
    } catch (err) {
      const e = err instanceof ChannelSendError ? err : new ChannelSendError('Falha inesperada ao enviar a mensagem.', { transient: true });
      if (!(err instanceof ChannelSendError)) deps.logger.error({ err, messageId }, 'channel adapter threw an unexpected error');
      disconnect = e.disconnect;
      const attempts = row.deliveryAttempts + 1;
      if (!e.transient || attempts >= o.maxAttempts) return markFailed(trx, row, e.message, attempts);
      await trx('messages').where({ id: row.id }).update({ deliveryAttempts: attempts, deliveryError: e.message, updatedAt: trx.fn.now() });
      const delayMs = Math.max(Math.min(o.maxDelayMs, o.initialDelayMs * 2 ** (attempts - 1)), Math.min(e.retryAfterMs ?? 0, o.maxDelayMs));
      return { result: { outcome: 'retry', delayMs }, after: null };
    }
    return markSent(trx, row, externalId ?? null);
  });

  if (disconnect && channel) await setChannelStatus(deps, channel, 'disconnected');
  if (outcome.after && conversation) {
    await publishMessageStatus(channelDeps, conversation, messageId, outcome.after.state === 'sent' ? MessageStatus.RECEIVED : MessageStatus.SENT, {
      deliveryState: outcome.after.state,
      deliveryError: outcome.after.error,
    });
  }
  return outcome.result;
}

async function markSent(trx: Knex.Transaction, row: Row, externalId: string | null): Promise<{ result: ChannelSendResult; after: After }> {
  const patch = { deliveryState: 'sent', deliveryError: null, deliveryAttempts: row.deliveryAttempts + 1, status: trx.raw('greatest(status, ?)', [MessageStatus.RECEIVED]), updatedAt: trx.fn.now() };
  if (externalId && externalId !== row.externalId) {
    try {
      // A savepoint: the provider id already on another row (an echo stored first) must not undo the send.
      await trx.transaction(async (sp) => sp('messages').where({ id: row.id }).update({ ...patch, externalId }));
      return { result: { outcome: 'done', state: 'sent' }, after: { kind: 'status', state: 'sent', error: null } };
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
  }
  await trx('messages').where({ id: row.id }).update(patch);
  return { result: { outcome: 'done', state: 'sent' }, after: { kind: 'status', state: 'sent', error: null } };
}

async function markFailed(trx: Knex.Transaction, row: Row, error: string, attempts = row.deliveryAttempts + 1): Promise<{ result: ChannelSendResult; after: After }> {
  await trx('messages').where({ id: row.id }).update({ deliveryState: 'failed', deliveryError: error, deliveryAttempts: attempts, updatedAt: trx.fn.now() });
  return { result: { outcome: 'done', state: 'failed' }, after: { kind: 'status', state: 'failed', error } };
}
