import { INTERNAL_USERNAME } from './access';

/**
 * The few calls of RabbitMQ's management HTTP API (rabbitmq_management, MQTT_ADMIN_URL) the api makes
 * about MQTT sessions on the external broker (docs/scaling.md): who is connected, and ending the sessions
 * of an operator whose tokens were cut. MQTT sessions show there as connections (their client id in
 * `client_properties.client_id`) and their subscriptions as bindings of the topic exchange to the
 * session's queue `mqtt-subscription-{clientId}qos0|1`, with the topic as routing key (`/` → `.`).
 */
export interface BrokerAdmin {
  /** Operators with at least one live session subscribed to their own topic, as `${workspaceId}:${operatorId}`. */
  liveOperators(): Promise<Set<string>>;
  /** Closes this operator's live sessions in this workspace and drops their kept queues; resolves to how many sessions. */
  closeOperator(workspaceId: number, operatorId: number): Promise<number>;
  /**
   * Makes the server processes' credential a user of the broker itself, allowed everything on the vhost:
   * their publishes (every event) are then checked by RabbitMQ alone, never by a hook round trip.
   */
  ensureInternalUser(password: string): Promise<void>;
}

interface Connection {
  name: string;
  user: string;
  client_properties?: { client_id?: string };
}
interface Binding {
  destination: string;
  destination_type: string;
  routing_key: string;
}

const OPERATOR_KEY = /^ws\.([1-9][0-9]{0,9})\.op\.([1-9][0-9]{0,9})$/;
const SESSION_QUEUE = /^mqtt-subscription-(.+)qos[01]$/;
const TIMEOUT_MS = 5000;

export function createRabbitAdmin(adminUrl: string, vhost = '/'): BrokerAdmin {
  const url = new URL(adminUrl);
  const auth = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
  url.username = '';
  url.password = '';
  const base = url.toString().replace(/\/$/, '');
  const v = encodeURIComponent(vhost);

  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: auth, 'x-reason': 'balcao: token cut', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!res.ok && !(method === 'DELETE' && res.status === 404)) throw new Error(`RabbitMQ management ${method} ${path}: ${res.status}`);
    return (method === 'GET' ? await res.json() : undefined) as T;
  };

  /** Client id → connection names, for the live MQTT connections. */
  const liveClients = async (): Promise<Map<string, { names: string[]; user: string }>> => {
    const connections = await call<Connection[]>('GET', `/api/vhosts/${v}/connections?columns=name,user,client_properties`);
    const live = new Map<string, { names: string[]; user: string }>();
    for (const c of connections) {
      const id = c.client_properties?.client_id;
      if (!id) continue;
      const entry = live.get(id) ?? { names: [], user: c.user };
      entry.names.push(c.name);
      live.set(id, entry);
    }
    return live;
  };

  /** Operator topic subscriptions: [workspaceId, operatorId, clientId, queue]. */
  const operatorSubscriptions = async (): Promise<[number, number, string, string][]> => {
    const bindings = await call<Binding[]>('GET', `/api/exchanges/${v}/amq.topic/bindings/source`);
    const out: [number, number, string, string][] = [];
    for (const b of bindings) {
      const key = OPERATOR_KEY.exec(b.routing_key);
      const client = SESSION_QUEUE.exec(b.destination)?.[1];
      if (key && client && b.destination_type === 'queue') out.push([Number(key[1]), Number(key[2]), client, b.destination]);
    }
    return out;
  };

  return {
    async ensureInternalUser(password) {
      await call('PUT', `/api/users/${INTERNAL_USERNAME}`, { password, tags: '' });
      await call('PUT', `/api/permissions/${v}/${INTERNAL_USERNAME}`, { configure: '.*', write: '.*', read: '.*' });
    },
    async liveOperators() {
      const [live, subs] = await Promise.all([liveClients(), operatorSubscriptions()]);
      const online = new Set<string>();
      // The broker authenticated the connection's user; the topic check let only that operator bind it.
      for (const [workspaceId, operatorId, client] of subs) if (live.get(client)?.user === String(operatorId)) online.add(`${workspaceId}:${operatorId}`);
      return online;
    },
    async closeOperator(workspaceId, operatorId) {
      const [live, subs] = await Promise.all([liveClients(), operatorSubscriptions()]);
      const mine = subs.filter(([w, o]) => w === workspaceId && o === operatorId);
      let closed = 0;
      for (const [, , client] of mine) {
        for (const name of live.get(client)?.names ?? []) {
          await call('DELETE', `/api/connections/${encodeURIComponent(name)}`);
          closed++;
        }
      }
      // A kept (clean: false) session's queue would hand its events to the next CONNECT with that client id.
      for (const queue of new Set(mine.map(([, , , q]) => q))) await call('DELETE', `/api/queues/${v}/${encodeURIComponent(queue)}`);
      return closed;
    },
  };
}
