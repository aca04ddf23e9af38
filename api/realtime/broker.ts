import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { Aedes, type AuthenticateError, type Client, type PublishPacket, type UnsubscribePacket } from 'aedes';
import { WebSocketServer, createWebSocketStream, type WebSocket } from 'ws';
import type { Knex } from 'knex';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { Publisher } from './publisher';
import { assertPublishableTopic, makeEnvelope } from './envelope';
import { ConnectRefusal, authenticateConnect, isFamilyTopic, mayPublish, mayReceive, maySubscribe, sameIdentity, type MqttIdentity } from './access';
import { createMqttPublisher } from './mqttPublisher';
import { createRabbitAdmin } from './rabbitAdmin';
import { startBrokerPresenceSync } from './brokerPresence';
import { oneFramePerFlush } from './wsFrames';

export interface EmbeddedBroker {
  publisher: Publisher;
  healthy(): Promise<boolean>;
  /** Drops every live session of this operator in this workspace (deactivation, removal, password change). Resolves to how many. */
  disconnectOperator(workspaceId: number, operatorId: number): Promise<number>;
  /**
   * Stops delivering these family topics (team rooms they left) to this operator's sessions, live or kept,
   * without ending them (their inbox and presence stay). Resolves to how many sessions held them.
   */
  revokeTopics(workspaceId: number, operatorId: number, topics: string[]): Promise<number>;
  close(): Promise<void>;
}

export const MQTT_PATH = '/mqtt';
/** Events carry at most a message with its content; anything bigger is not an event. */
const MAX_FRAME_BYTES = 1024 * 1024;
/** setTimeout's ceiling; tokens live far shorter, this only guards against overflow. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Told when an operator's first session opens (online) or last one closes (offline); the api wires
 * assignment's setOperatorOnline here (docs/assignment.md), so the broker stays below the areas it serves.
 */
export type PresenceHook = (
  deps: { config: Config; knex: Knex; logger: Logger; publisher: Publisher },
  operator: { workspaceId: number; operatorId: number },
  online: boolean,
) => Promise<unknown>;

interface Deps {
  config: Config;
  knex: Knex;
  logger: Logger;
  onPresence: PresenceHook;
  /** How long an operator's persistent session (clean: false) is kept after its connection drops. */
  sessionExpiryMs?: number;
}

/** Default life of an offline persistent session: covers network blips and laptop lids, not days away. */
export const SESSION_EXPIRY_MS = 2 * 60_000;

/** A persistent (clean: false) operator session the broker keeps while its connection is down. */
interface StoredSession {
  /** Whose it is: `${workspaceId}:${operatorId}`. */
  owner: string;
  expiry?: NodeJS.Timeout;
}

/** The parts of aedes' persistence this file uses (not in aedes' typings). */
interface SessionPersistence {
  cleanSubscriptions(client: { id: string }): Promise<void>;
  outgoingStream(client: { id: string }): AsyncIterable<{ messageId?: number }>;
  outgoingClearMessageId(client: { id: string }, packet: { messageId?: number }): Promise<unknown>;
}

interface Session {
  client: Client;
  identity: MqttIdentity;
  expiry?: NodeJS.Timeout;
}

function refusal(code: number, reason: string): AuthenticateError {
  return Object.assign(new Error(reason), { returnCode: code }) as AuthenticateError;
}

function rejectUpgrade(socket: Duplex, status: string): void {
  if (socket.writable) socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  socket.destroy();
}

/**
 * The realtime layer of the api process (DESIGN.md §6).
 *
 * Without MQTT_URL, an aedes broker is embedded on the api's own HTTP server at /mqtt (WebSocket) and the
 * api publishes to it in-process. With MQTT_URL, the broker is external (several api nodes): nothing is
 * embedded, the api publishes through that broker with the internal credential like any other server
 * process, and the broker asks POST /api/mqtt/auth and /api/mqtt/acl (see router.ts).
 */
export function attachBroker(server: Server, deps: Deps): EmbeddedBroker {
  if (deps.config.mqttUrl) return externalBroker(deps);
  return embedBroker(server, deps);
}

function externalBroker({ config, knex, logger, onPresence }: Deps): EmbeddedBroker {
  const publisher = createMqttPublisher(config.mqttUrl as string, config.mqttInternalPassword, { logger });
  // RabbitMQ's management API (MQTT_ADMIN_URL): presence from the broker's sessions, and token cuts.
  const admin = config.mqttAdminUrl ? createRabbitAdmin(config.mqttAdminUrl) : undefined;
  const presence = admin ? startBrokerPresenceSync({ config, knex, logger, publisher }, admin, onPresence) : undefined;
  return {
    publisher,
    healthy: async () => publisher.connected(),
    async disconnectOperator(workspaceId, operatorId) {
      // New CONNECTs and SUBSCRIBEs are refused by /api/mqtt/auth and /acl once the token or membership is
      // cut; live sessions are ended through the broker's management API where it is configured.
      if (admin) return admin.closeOperator(workspaceId, operatorId);
      logger.info({ workspaceId, operatorId }, 'external broker without MQTT_ADMIN_URL: sessions end when their token expires');
      return 0;
    },
    // An external broker cannot drop one subscription of a session from here: the sessions end (and the
    // broker's ACL refuses the topic when the browser reconnects), docs/team-chat.md "Realtime".
    revokeTopics(workspaceId, operatorId) {
      return this.disconnectOperator(workspaceId, operatorId);
    },
    async close() {
      await presence?.stop();
      await publisher.close();
    },
  };
}

function embedBroker(server: Server, { config, knex, logger, onPresence, sessionExpiryMs = SESSION_EXPIRY_MS }: Deps): EmbeddedBroker {
  const log = logger.child({ component: 'mqtt' });
  const identities = new WeakMap<Client, MqttIdentity>();
  const sessions = new Map<string, Session>();
  // Presence (docs/assignment.md): an operator is online while at least one session (tab) is; updates run
  // one after another so a quick connect/disconnect cannot land out of order.
  const liveSessions = new Map<string, number>();
  let presenceQueue: Promise<void> = Promise.resolve();
  const presence = (identity: MqttIdentity, delta: 1 | -1) => {
    if (identity.kind !== 'operator') return;
    const key = `${identity.workspaceId}:${identity.operatorId}`;
    const before = liveSessions.get(key) ?? 0;
    const after = Math.max(before + delta, 0);
    if (after) liveSessions.set(key, after);
    else liveSessions.delete(key);
    if (!before === !after) return;
    presenceQueue = presenceQueue
      .then(() => onPresence({ config, knex, logger, publisher }, identity, after > 0))
      .then(
        () => undefined,
        (err: unknown) => log.warn({ err, operatorId: identity.operatorId }, 'presence update failed'),
      );
  };

  // Persistent sessions (docs/realtime.md "Reconnecting"): an operator's clean: false session keeps its
  // subscriptions and queues its QoS 1 events while the connection is down, for sessionExpiryMs; after that,
  // or after an api restart, the client reconnects without a session (sessionPresent false) and refetches.
  const stored = new Map<string, StoredSession>();
  // Family topics (team rooms) each client id was granted by authorizeSubscribe (docs/team-chat.md "Realtime"):
  // delivery checks them (mayReceive), and they go with the session (a clean start, a forgotten session, a cut operator).
  const grantedRooms = new Map<string, Set<string>>();
  const ownerOf = (identity: MqttIdentity) => (identity.kind === 'operator' ? `${identity.workspaceId}:${identity.operatorId}` : '');
  const forget = async (clientId: string): Promise<void> => {
    const entry = stored.get(clientId);
    clearTimeout(entry?.expiry);
    stored.delete(clientId);
    grantedRooms.delete(clientId);
    const persistence = (aedes as unknown as { persistence: SessionPersistence }).persistence;
    const ref = { id: clientId };
    await persistence.cleanSubscriptions(ref);
    // Queued packets go one by one (the memory persistence has no "drop queue").
    for await (const packet of persistence.outgoingStream(ref)) await persistence.outgoingClearMessageId(ref, packet);
  };
  const forgetLater = (clientId: string) => {
    const entry = stored.get(clientId);
    if (!entry) return;
    clearTimeout(entry.expiry);
    entry.expiry = setTimeout(() => {
      if (sessions.has(clientId)) return;
      forget(clientId).catch((err: unknown) => log.warn({ err, clientId }, 'persistent session cleanup failed'));
    }, sessionExpiryMs);
    entry.expiry.unref();
  };

  const aedes = new Aedes({
    connectTimeout: 10_000,
    drainTimeout: 30_000,
    heartbeatInterval: 60_000,

    authenticate(client, username, password, done) {
      authenticateConnect({ config, knex }, { clientId: client.id, username, password: password?.toString('utf8') })
        .then((decision) => {
          if (!decision.ok) {
            log.debug({ clientId: client.id, username, reason: decision.reason }, 'mqtt connect refused');
            return done(refusal(decision.code, decision.reason), false);
          }
          if (!client.clean && decision.identity.kind !== 'operator') {
            // Only operators keep sessions; visitors refetch after a reconnect (docs/widget.md).
            return done(refusal(ConnectRefusal.identifierRejected, 'sessão persistente não suportada'), false);
          }
          const holder = sessions.get(client.id);
          if (holder && !sameIdentity(holder.identity, decision.identity)) {
            // A client id in use by someone else would otherwise take their session over.
            return done(refusal(ConnectRefusal.identifierRejected, 'client id em uso'), false);
          }
          const owner = ownerOf(decision.identity);
          const previous = stored.get(client.id);
          // Someone else's offline session under this client id, or a clean start: nothing of it is restored.
          const wipe = previous && (client.clean || previous.owner !== owner) ? forget(client.id) : Promise.resolve();
          return wipe.then(() => {
            if (client.clean) {
              stored.delete(client.id);
              grantedRooms.delete(client.id);
            } else {
              clearTimeout(stored.get(client.id)?.expiry);
              stored.set(client.id, { owner });
            }
            identities.set(client, decision.identity);
            done(null, true);
          });
        })
        .catch((err: unknown) => {
          log.error({ err }, 'mqtt authentication failed');
          done(refusal(ConnectRefusal.serverUnavailable, 'autenticação indisponível'), false);
        });
    },

    authorizeSubscribe(client, sub, done) {
      const identity = identities.get(client);
      if (!identity) return done(null, null);
      maySubscribe({ knex }, identity, sub.topic)
        .then((allowed) => {
          if (!allowed) return done(null, null);
          if (isFamilyTopic(sub.topic)) {
            let granted = grantedRooms.get(client.id);
            if (!granted) grantedRooms.set(client.id, (granted = new Set()));
            granted.add(sub.topic);
          }
          // Events are published at QoS 1; QoS 2 would only add round trips.
          done(null, { ...sub, qos: Math.min(sub.qos, 1) as 0 | 1 });
        })
        .catch((err: unknown) => {
          log.warn({ err, topic: sub.topic }, 'mqtt subscription check failed');
          done(null, null);
        });
    },

    authorizePublish(client, packet, done) {
      const identity = client ? identities.get(client) : undefined;
      if (identity && mayPublish(identity, packet.topic)) return done(null);
      // MQTT 3.1.1 cannot tell the client; the broker drops the message and closes that connection.
      done(new Error('publicação não permitida'));
    },

    authorizeForward(client, packet) {
      const identity = identities.get(client);
      return identity && mayReceive(identity, packet.topic, grantedRooms.get(client.id)) ? packet : null;
    },
  });

  aedes.on('clientReady', (client) => {
    const identity = identities.get(client);
    if (!identity) return void client.close();
    const session: Session = { client, identity };
    if (identity.kind === 'operator' && identity.expiresAt !== undefined) {
      // Token renewal in the UI reconnects with the new token; an expired token keeps no session alive.
      session.expiry = setTimeout(() => client.close(), Math.min(Math.max(identity.expiresAt - Date.now(), 0), MAX_TIMER_MS));
      session.expiry.unref();
    }
    sessions.set(client.id, session);
    presence(identity, 1);
  });
  aedes.on('clientDisconnect', (client) => {
    const session = sessions.get(client.id);
    if (session?.client !== client) return;
    clearTimeout(session.expiry);
    sessions.delete(client.id);
    presence(session.identity, -1);
    if (!client.clean) forgetLater(client.id);
    else grantedRooms.delete(client.id);
  });
  aedes.on('clientError', (client, err) => log.debug({ clientId: client.id, err: err.message }, 'mqtt client error'));
  aedes.on('connectionError', (_client, err) => log.debug({ err: err.message }, 'mqtt connection error'));
  // Not in aedes' typings, but emitted (persistence, will sweeps); unhandled it would crash the api.
  (aedes as NodeJS.EventEmitter).on('error', (err: Error) => log.error({ err }, 'mqtt broker error'));

  let up = false;
  const ready = aedes.listen().then(
    () => {
      up = true;
    },
    (err: unknown) => {
      log.error({ err }, 'mqtt broker did not start');
    },
  );

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  wss.on('error', (err) => log.error({ err }, 'mqtt websocket server error'));

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', (err) => log.debug({ err: err.message }, 'mqtt upgrade socket error'));
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (pathname !== MQTT_PATH) return rejectUpgrade(socket, '404 Not Found');
    ready
      .then(() => {
        if (!up || aedes.closed) return rejectUpgrade(socket, '503 Service Unavailable');
        wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
          const stream = createWebSocketStream(ws);
          oneFramePerFlush(stream);
          ws.on('error', (err) => log.debug({ err: err.message }, 'mqtt websocket error'));
          stream.on('error', (err) => log.debug({ err: err.message }, 'mqtt stream error'));
          aedes.handle(stream, req);
        });
      })
      .catch((err: unknown) => {
        // An unhandled rejection would end the api process; one failed connection must not.
        log.error({ err }, 'mqtt upgrade failed');
        socket.destroy();
      });
  };
  server.on('upgrade', onUpgrade);

  const publisher: Publisher = {
    async publish(topic, event, data) {
      assertPublishableTopic(topic);
      await ready;
      if (!up || aedes.closed) {
        log.warn({ topic, event }, 'mqtt broker down: event not published');
        return false;
      }
      const packet: PublishPacket = {
        cmd: 'publish',
        topic,
        payload: Buffer.from(JSON.stringify(makeEnvelope(event, data))),
        qos: 1,
        retain: false,
        dup: false,
      };
      return new Promise<boolean>((resolve) => {
        aedes.publish(packet, (err) => {
          if (err) log.warn({ err, topic, event }, 'mqtt publish failed');
          resolve(!err);
        });
      });
    },
    // The broker's lifetime is the api's: closing the publisher does not close the broker.
    async close() {},
  };

  return {
    publisher,
    healthy: async () => up && !aedes.closed,
    async disconnectOperator(workspaceId, operatorId) {
      const matching = [...sessions.values()].filter(
        (s) => s.identity.kind === 'operator' && s.identity.workspaceId === workspaceId && s.identity.operatorId === operatorId,
      );
      await Promise.all(matching.map((s) => new Promise<void>((resolve) => s.client.close(() => resolve()))));
      // Their kept sessions go too: nothing queued for a removed member survives to a later CONNECT.
      const owner = `${workspaceId}:${operatorId}`;
      await Promise.all([...stored].filter(([, e]) => e.owner === owner).map(([clientId]) => forget(clientId)));
      return matching.length;
    },
    async revokeTopics(workspaceId, operatorId, revoked) {
      const owner = `${workspaceId}:${operatorId}`;
      const clientIds = new Set<string>();
      for (const [clientId, s] of sessions) if (ownerOf(s.identity) === owner) clientIds.add(clientId);
      for (const [clientId, e] of stored) if (e.owner === owner) clientIds.add(clientId);
      let held = 0;
      for (const clientId of clientIds) {
        const granted = grantedRooms.get(clientId);
        if (!granted || !revoked.some((t) => granted.has(t))) continue;
        held++;
        // Delivery stops at once (mayReceive needs the grant), queued events included; the subscription goes too.
        for (const t of revoked) granted.delete(t);
        const live = sessions.get(clientId)?.client;
        // No messageId: nothing is answered to the browser (it never asked); a kept session's stored copy stays, ungranted.
        if (live) await new Promise<void>((resolve) => live.unsubscribe({ cmd: 'unsubscribe', unsubscriptions: revoked } as unknown as UnsubscribePacket, () => resolve()));
      }
      return held;
    },
    async close() {
      server.off('upgrade', onUpgrade);
      await ready;
      for (const s of sessions.values()) clearTimeout(s.expiry);
      for (const e of stored.values()) clearTimeout(e.expiry);
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      if (up) await new Promise<void>((resolve) => aedes.close(() => resolve()));
      up = false;
      await presenceQueue;
    },
  };
}
