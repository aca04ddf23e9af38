import {
  ActivityCancellationType,
  CancellationScope,
  condition,
  continueAsNew,
  defineQuery,
  defineSignal,
  isCancellation,
  proxyActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../../activities';

export interface WhatsappConnectionInput {
  workspaceId: number;
  channelId: number;
  /** Failed attempts in a row so far (carried across continueAsNew); sets the next backoff. */
  failures?: number;
}

/** 'Reiniciar': close the current socket (or wake from a backoff) and connect afresh. */
export const whatsappRestartSignal = defineSignal<[]>('whatsappRestart');

export interface WhatsappConnectionState {
  /** Sockets opened by this run. */
  attempts: number;
  failures: number;
  /** The last backoff slept, in ms (0 when the last reconnect was immediate). */
  lastDelayMs: number;
  lastReason: string | null;
}
export const whatsappConnectionStateQuery = defineQuery<WhatsappConnectionState>('whatsappConnectionState');

/** Reconnect backoff: 1 s after the first lost connection, doubled per failure in a row, capped at 5 min. */
export const RECONNECT_INITIAL_MS = 1_000;
export const RECONNECT_MAX_MS = 5 * 60_000;
export function reconnectDelayMs(failures: number): number {
  return Math.min(RECONNECT_MAX_MS, RECONNECT_INITIAL_MS * 2 ** Math.max(0, failures - 1));
}

/**
 * How long Temporal waits without a heartbeat before it gives the socket to another worker. The activity
 * heartbeats every 5 s; a restart's cancellation reaches it with the next heartbeat (at most ~16 s, the
 * SDK's throttle of 0.8 × this timeout).
 */
export const QR_SESSION_HEARTBEAT_TIMEOUT = '20 seconds';

const { whatsappQrSession } = proxyActivities<Activities>({
  // The socket lives as long as the line; the heartbeat, not this, detects a lost worker.
  startToCloseTimeout: '30 days',
  heartbeatTimeout: QR_SESSION_HEARTBEAT_TIMEOUT,
  // A restart waits for the old socket to be closed before the new one opens: never two sockets.
  cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  // Infrastructure retries (database away, worker lost). A socket's close is a result, decided below.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

const { reportWhatsappConnection } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * A QR line's connection (`channel:{channelId}`, docs/channels/whatsapp.md "Connection workflow"). One
 * socket at a time lives in the `whatsappQrSession` activity; when it closes, the handler's decision says
 * what next: reconnect at once (after the QR is read), reconnect after a backoff (connection lost), or stop
 * (logged out, replaced, QR not read) with the line disconnected. `whatsappRestartSignal` connects afresh
 * from any of these; after a stop the api starts a new run with the same signal (signal-with-start).
 * The workflow id is the line's only lock: Temporal runs one workflow per id, so exactly one socket per line
 * exists across all workers.
 */
export async function whatsappConnection(input: WhatsappConnectionInput): Promise<string> {
  const line = { workspaceId: input.workspaceId, channelId: input.channelId };
  const state: WhatsappConnectionState = { attempts: 0, failures: input.failures ?? 0, lastDelayMs: 0, lastReason: null };
  let restart = false;
  let session: CancellationScope | undefined;
  setHandler(whatsappRestartSignal, () => {
    restart = true;
    session?.cancel();
  });
  setHandler(whatsappConnectionStateQuery, () => state);

  await reportWhatsappConnection({ ...line, phase: 'connecting' });
  for (;;) {
    if (restart) {
      restart = false;
      state.failures = 0;
      await reportWhatsappConnection({ ...line, phase: 'restarting' });
    }
    if (workflowInfo().continueAsNewSuggested) {
      await continueAsNew<typeof whatsappConnection>({ ...line, failures: restart ? 0 : state.failures });
    }

    state.attempts++;
    session = new CancellationScope();
    let result;
    try {
      result = await session.run(() => whatsappQrSession(line));
    } catch (err) {
      // Cancelled by a restart: the old socket is closed; go round and open a new one.
      if (isCancellation(err) && restart) continue;
      throw err;
    } finally {
      session = undefined;
    }

    if (result.outcome === 'gone') return 'gone';
    const { decision, opened } = result;
    state.lastReason = decision.reason;
    if (decision.action === 'stop') {
      await reportWhatsappConnection({ ...line, phase: 'disconnected' });
      // A restart that arrived while the socket was closing still counts.
      if (!restart) return decision.reason;
      continue;
    }
    if (opened) state.failures = 0;
    if (!decision.backoff) {
      state.lastDelayMs = 0;
      continue;
    }
    state.failures++;
    state.lastDelayMs = reconnectDelayMs(state.failures);
    // The backoff ends early on 'Reiniciar'.
    await condition(() => restart, state.lastDelayMs);
  }
}
