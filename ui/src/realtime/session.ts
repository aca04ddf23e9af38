/**
 * How the app's realtime connection treats a (re)connection (docs/realtime.md "Reconnecting"). The
 * client connects with `clean: false` and a client id kept for the page's life; the broker keeps the
 * session for a while after a drop and replays the QoS 1 events it queued. CONNACK's `sessionPresent`
 * says whether that happened: if not (first connection, session expired, api restarted), whatever the
 * page shows may be stale and is refetched.
 */
export type ConnectOutcome = 'first' | 'resumed' | 'refetch';

export function connectOutcome(connectedBefore: boolean, sessionPresent: boolean | undefined): ConnectOutcome {
  if (!connectedBefore) return 'first';
  return sessionPresent ? 'resumed' : 'refetch';
}

/** One client id per page (not per tab storage: a duplicated tab must not fight over the session). */
export function realtimeClientId(operatorId: number, random: () => number = Math.random): string {
  return `op_${operatorId}_${random().toString(36).slice(2, 10)}`;
}

/** MQTT options of the app's connection that make the broker keep and replay its session. */
export const SESSION_OPTIONS = { clean: false, qos: 1 } as const;
