import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNotifyOnce } from '../common/useNotifyOnce';
import type { MqttClient } from 'mqtt';
import { getSession, subscribeSession, updateWorkspace, useSession } from '../providers/session';
import { brokerUrl, parseEvent, realtimeTopics, type RealtimeEvent } from './events';
import { syncSessionSubscription } from '../settings/billing/sessionSync';
import { connectOutcome, realtimeClientId, SESSION_OPTIONS, type ConnectOutcome } from './session';

export type LiveStatus = 'connecting' | 'online' | 'offline';
type Handler = (event: RealtimeEvent) => void;

interface RealtimeValue {
  status: LiveStatus;
  /** Id of the last event received: a reconnecting view refetches what changed after it. */
  lastEventId: () => string | undefined;
  /**
   * What the last (re)connection was: 'resumed' means the broker kept the session and replays what was
   * missed (nothing to refetch); 'refetch' means it did not, and views reload their data.
   */
  lastConnect: () => ConnectOutcome;
  subscribe: (handler: Handler) => () => void;
  /**
   * Topics beyond the operator's own two (the team chat's rooms, docs/team-chat.md): subscribed while some
   * component holds them, again on every (re)connection; the broker checks each one (a refusal is ignored).
   */
  holdTopics: (topics: string[]) => () => void;
}

const RealtimeContext = createContext<RealtimeValue>({ status: 'offline', lastEventId: () => undefined, lastConnect: () => 'first', subscribe: () => () => undefined, holdTopics: () => () => undefined });

/**
 * The one MQTT connection of the logged-in app (DESIGN.md §6): username = operator id, password = the
 * workspace token. Reconnects by itself; a failed socket marks the live connection off (SPEC §4).
 * mqtt.js is loaded lazily so it stays out of the initial bundle.
 */
export function RealtimeProvider({ children }: { children: ReactNode }) {
  const session = useSession();
  const notify = useNotifyOnce();
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const handlers = useRef(new Set<Handler>());
  const lastId = useRef<string | undefined>(undefined);
  const lastOutcome = useRef<ConnectOutcome>('first');
  const notifyRef = useRef(notify);
  notifyRef.current = notify;
  /** Extra topics with how many holders each; the live client, to (un)subscribe them as they come and go. */
  const held = useRef(new Map<string, number>());
  const live = useRef<MqttClient | undefined>(undefined);

  const operatorId = session?.user.id;
  const workspaceId = session?.workspace.workspaceId;

  useEffect(() => {
    if (!operatorId || !workspaceId) return;
    let client: MqttClient | undefined;
    let stopped = false;
    let connectedBefore = false;
    setStatus('connecting');

    const onEvent = (event: RealtimeEvent) => {
      lastId.current = event.id;
      if (event.event === 'WorkspaceActivation') {
        const message = (event.data as { message?: unknown } | null)?.message;
        if (typeof message === 'string' && message) notifyRef.current(message, { type: 'info' });
      } else if (event.event === 'subscription.expired') {
        const sub = getSession()?.workspace.subscription;
        if (sub) updateWorkspace({ subscription: { ...sub, status: 'expired' } });
      } else if (event.event === 'subscription.updated') {
        // A paid renewal or upgrade (docs/billing-api.md): the expired-plan banner goes away without a reload.
        syncSessionSubscription((event.data as { subscription?: unknown } | null)?.subscription);
      }
      for (const handler of handlers.current) handler(event);
    };

    import('mqtt')
      .then((mod) => {
        if (stopped) return;
        const connect = mod.connect ?? mod.default.connect;
        const c = connect(brokerUrl(), {
          username: String(operatorId),
          password: getSession()?.workspace.token,
          // Kept across this client's reconnects, so the broker finds the session it kept (session.ts).
          clientId: realtimeClientId(operatorId),
          reconnectPeriod: 5000,
          connectTimeout: 10_000,
          clean: SESSION_OPTIONS.clean,
          // Worker-based timers need a blob: worker, which our CSP (script-src 'self') forbids.
          timerVariant: 'native',
        });
        client = c;
        live.current = c;
        c.on('connect', (connack) => {
          lastOutcome.current = connectOutcome(connectedBefore, connack.sessionPresent);
          connectedBefore = true;
          // Online only once the broker acknowledged the subscription (SUBACK): views refetch on 'online', and a
          // refetch sent before the subscription is in place could miss an event published in between.
          c.subscribe(realtimeTopics(workspaceId, operatorId), { qos: SESSION_OPTIONS.qos }, (err) => {
            if (!stopped) setStatus(err ? 'offline' : 'online');
          });
          if (held.current.size) c.subscribe([...held.current.keys()], { qos: SESSION_OPTIONS.qos }, () => undefined);
        });
        c.on('message', (_topic, payload) => {
          const event = parseEvent(payload);
          if (event) onEvent(event);
        });
        c.on('reconnect', () => setStatus('connecting'));
        c.on('close', () => setStatus('offline'));
        c.on('offline', () => setStatus('offline'));
        c.on('error', () => setStatus('offline'));
      })
      .catch(() => setStatus('offline'));

    // Reconnects must use the renewed token, not the one the socket was opened with.
    const unsubscribe = subscribeSession(() => {
      const token = getSession()?.workspace.token;
      if (client && token) client.options.password = token;
    });

    return () => {
      stopped = true;
      unsubscribe();
      client?.removeAllListeners();
      client?.end(true);
      client = undefined;
      live.current = undefined;
    };
  }, [operatorId, workspaceId]);

  const subscribe = useCallback((handler: Handler) => {
    handlers.current.add(handler);
    return () => {
      handlers.current.delete(handler);
    };
  }, []);
  const holdTopics = useCallback((list: string[]) => {
    const added = list.filter((topic) => {
      const n = held.current.get(topic) ?? 0;
      held.current.set(topic, n + 1);
      return n === 0;
    });
    const c = live.current;
    if (added.length && c?.connected) c.subscribe(added, { qos: SESSION_OPTIONS.qos }, () => undefined);
    return () => {
      const gone = list.filter((topic) => {
        const n = (held.current.get(topic) ?? 1) - 1;
        if (n > 0) held.current.set(topic, n);
        else held.current.delete(topic);
        return n <= 0;
      });
      const current = live.current;
      if (gone.length && current?.connected) current.unsubscribe(gone, () => undefined);
    };
  }, []);
  const lastEventId = useCallback(() => lastId.current, []);
  const lastConnect = useCallback(() => lastOutcome.current, []);
  const value = useMemo<RealtimeValue>(() => ({ status, lastEventId, lastConnect, subscribe, holdTopics }), [status, lastEventId, lastConnect, subscribe, holdTopics]);
  return <RealtimeContext.Provider value={value}>{children}</RealtimeContext.Provider>;
}

export function useRealtimeStatus(): LiveStatus {
  return useContext(RealtimeContext).status;
}

/** Whether the last reconnection resumed the kept session (see session.ts); read it when the status turns online. */
export function useRealtimeLastConnect(): () => ConnectOutcome {
  return useContext(RealtimeContext).lastConnect;
}

/** Runs `handler` for every realtime event while the component is mounted. */
export function useRealtimeEvent(handler: Handler): void {
  const { subscribe } = useContext(RealtimeContext);
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => subscribe((event) => ref.current(event)), [subscribe]);
}

/** Holds these extra topics while the component is mounted (the same list, in any order, is not resubscribed). */
export function useRealtimeTopics(topics: string[]): void {
  const { holdTopics } = useContext(RealtimeContext);
  const key = [...topics].sort().join('|');
  useEffect(() => (key ? holdTopics(key.split('|')) : undefined), [key, holdTopics]);
}
