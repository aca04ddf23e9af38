import { ApplicationFailure, Context } from '@temporalio/activity';
import { attachQrHandlers, type CloseDecision, type QrLineInfo } from './whatsapp/eventHandler';
import { usePostgresAuthState } from './whatsapp/authState';
import { createStateCipher, type StateCipher } from './whatsapp/stateCipher';
import type { MakeQrSocket } from './whatsapp/qrSocket';
import { QrLiveSockets, recordSessionQueue } from './whatsapp/liveSockets';
import type { ActivityDeps } from '../deps';

export interface WhatsappQrSessionInput {
  workspaceId: number;
  channelId: number;
}

/**
 * How one socket ended: `closed` with the handler's decision (and whether the line opened on the way, which
 * resets the workflow's backoff); `gone` when the channel no longer exists or is not a QR line.
 */
export type WhatsappQrSessionResult = { outcome: 'closed'; decision: CloseDecision; opened: boolean } | { outcome: 'gone' };

export interface WhatsappQrSessionOptions {
  /** Opens the socket: Baileys in the worker, a fake in tests. */
  makeSocket: MakeQrSocket;
  /** The session's cipher (from CHANNEL_SECRETS_KEY, config.channelSecretsKey); asked once per session. */
  cipher(): StateCipher;
  /** How often the activity heartbeats (the workflow's heartbeat timeout is several times this). */
  heartbeatMs: number;
  /**
   * The live sockets of this worker process, shared with the send activity and the socket calls; its
   * `taskQueue` (the queue only this process polls) is noted for the line while the socket is open.
   */
  sockets: QrLiveSockets;
}

export const DEFAULT_QR_HEARTBEAT_MS = 5_000;

/**
 * Defaults: the configured key, and no socket at all. Only the worker process passes Baileys
 * (`baileysSocketFactory`, activities/worker.ts): every other `createActivities` (the tests' workers on the shared
 * dev server among them) fails a QR session at once instead of ever reaching WhatsApp's servers.
 */
export function defaultQrSessionOptions(deps: ActivityDeps, sockets: QrLiveSockets = new QrLiveSockets(null)): WhatsappQrSessionOptions {
  const config = deps.config;
  return {
    sockets,
    makeSocket() {
      throw ApplicationFailure.nonRetryable('WhatsApp QR sockets are not enabled in this worker', 'QrSocketsDisabled');
    },
    cipher() {
      if (!config) throw new Error('whatsappQrSession needs the config');
      return createStateCipher(config.channelSecretsKey);
    },
    heartbeatMs: DEFAULT_QR_HEARTBEAT_MS,
  };
}

/**
 * The activity that owns a QR line's socket while it lives (docs/channels/whatsapp.md "Connection
 * workflow"). It reads the session from PostgreSQL, opens the socket, lets `attachQrHandlers` turn its events
 * into statuses, QR codes and messages, and heartbeats until the socket closes; then it answers the
 * handler's decision for the workflow to act on. Cancelled (restart, worker shutdown), it closes the socket
 * first, so the next attempt never meets a second socket of the same line. A worker that dies stops
 * heartbeating: Temporal retries the activity elsewhere, which resumes from the stored session (no new QR).
 */
export function whatsappQrSession(deps: ActivityDeps, options: WhatsappQrSessionOptions) {
  return async function whatsappQrSession(input: WhatsappQrSessionInput): Promise<WhatsappQrSessionResult> {
    const ctx = Context.current();
    const config = deps.config;
    if (!config) throw new Error('whatsappQrSession needs the config');
    const row: { allowGroups: boolean; config: { provider?: string } | null } | undefined = await deps.knex('channels')
      .where({ id: input.channelId, workspaceId: input.workspaceId, type: 'whatsapp' })
      .first('allow_groups', 'config');
    if (!row || (row.config?.provider ?? 'qr') !== 'qr') return { outcome: 'gone' };

    const line: QrLineInfo = { workspaceId: input.workspaceId, channelId: input.channelId, allowGroups: !!row.allowGroups };
    const auth = await usePostgresAuthState(deps.knex, options.cipher(), line);
    let settle: (decision: CloseDecision) => void = () => undefined;
    const closed = new Promise<CloseDecision>((resolve) => (settle = resolve));
    const session = await options.makeSocket({ line, auth, logger: deps.logger });
    // Sends reach this socket through the process's registry, and other workers through its own queue.
    const live = options.sockets.add(input.channelId, session.socket);
    const queue = options.sockets.taskQueue;
    let opened = false;
    session.socket.ev.on('connection.update', (update) => {
      if (update.connection === 'open') {
        opened = true;
        live.setOpen(true);
        if (queue) void recordSessionQueue(deps.knex, input, queue).catch((err: unknown) => deps.logger.warn({ err, channelId: input.channelId }, 'WhatsApp session queue not recorded'));
      } else if (update.connection === 'close') live.setOpen(false);
    });
    const handler = attachQrHandlers({ ...deps, config, auth, fetchMedia: session.fetchMedia, groupName: session.groupName, onClose: settle }, line, session.socket);

    ctx.heartbeat();
    const beat = setInterval(() => ctx.heartbeat(), options.heartbeatMs);
    try {
      const decision = await Promise.race([closed, ctx.cancelled]);
      await handler.idle();
      return { outcome: 'closed', decision, opened };
    } catch (err) {
      session.socket.end(undefined);
      await handler.idle();
      throw err;
    } finally {
      clearInterval(beat);
      live.remove();
      if (queue) await recordSessionQueue(deps.knex, input, null, queue).catch((err: unknown) => deps.logger.warn({ err, channelId: input.channelId }, 'WhatsApp session queue not cleared'));
    }
  };
}
