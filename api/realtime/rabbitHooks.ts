import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { VISITOR_ID } from '../auth/visitorSessions';
import { membershipCacheFor } from '../auth/membershipCache';
import { INTERNAL_USERNAME, authenticateConnect, operatorTopics } from './access';
import { topicFamilyOf } from './topicFamilies';

/**
 * RabbitMQ's HTTP authentication backend (rabbitmq_auth_backend_http, docs/scaling.md) asking the api
 * about a broker session: `user` on CONNECT (username, password, client_id), then `vhost`, `resource`
 * (the session's own queue, the topic exchange) and `topic` (routing_key: the MQTT topic with `/` and
 * `.` swapped, `+` as `*`) on every SUBSCRIBE and PUBLISH. Each answer is `allow` or `deny`, in plain text.
 *
 * Only the username reaches the later checks, and RabbitMQ has authenticated it on CONNECT with the
 * password (the workspace token, the visitor token, or the internal credential), so the checks work from
 * it: an operator may receive the topics of a workspace where they are an active member (the membership
 * read that the token check also makes: a deactivation ends it within MEMBERSHIP_MAX_AGE_MS), a visitor
 * the one topic of their own conversation, and only server processes publish. Nothing is kept between
 * requests, so any api node answers any of them.
 */
export type RabbitParams = Record<string, string>;
export type RabbitAnswer = 'allow' | 'deny';

type Who = { kind: 'internal' } | { kind: 'operator'; operatorId: number } | { kind: 'visitor'; visitorId: string };

function who(username: string | undefined): Who | undefined {
  if (!username) return undefined;
  if (username === INTERNAL_USERNAME) return { kind: 'internal' };
  if (/^[1-9][0-9]{0,9}$/.test(username)) return { kind: 'operator', operatorId: Number(username) };
  const visitorId = /^visitor:(.+)$/.exec(username)?.[1];
  return visitorId && VISITOR_ID.test(visitorId) ? { kind: 'visitor', visitorId } : undefined;
}

/** The MQTT topic behind a routing key (the plugin swaps `/` and `.`); wildcards stay wildcards, and never match a topic of ours. */
export function topicOf(routingKey: string): string {
  return routingKey.replace(/[./]/g, (c) => (c === '.' ? '/' : '.'));
}

/** CONNECT (user_path): the embedded broker's check. */
export async function answerRabbitUser(deps: Pick<AppDeps, 'config' | 'knex'>, p: RabbitParams): Promise<RabbitAnswer> {
  const decision = await authenticateConnect(deps, { clientId: p.client_id ?? '', username: p.username, password: p.password });
  return decision.ok ? 'allow' : 'deny';
}

/** vhost_path: any authenticated user of ours, on the broker's MQTT vhost. */
export function answerRabbitVhost(p: RabbitParams): RabbitAnswer {
  return who(p.username) ? 'allow' : 'deny';
}

/**
 * resource_path: a browser may use its own session queue (`mqtt-subscription-{client_id}qos0|1`) and
 * read from the topic exchange; writing to the exchange (publishing) is for server processes only.
 */
export function answerRabbitResource(p: RabbitParams): RabbitAnswer {
  const identity = who(p.username);
  if (!identity) return 'deny';
  if (identity.kind === 'internal') return 'allow';
  if (p.resource === 'queue') return p.client_id && (p.name === `mqtt-subscription-${p.client_id}qos0` || p.name === `mqtt-subscription-${p.client_id}qos1`) ? 'allow' : 'deny';
  if (p.resource === 'exchange') return p.permission === 'read' ? 'allow' : 'deny';
  return 'deny';
}

async function visitorOwns(knex: Knex, visitorId: string, topic: string): Promise<boolean> {
  const m = /^widget\/([^/]+)\/([^/]+)$/.exec(topic);
  if (!m || m[2] !== visitorId) return false;
  const row = await knex('widget_visitors as v')
    .join('channels as c', (j) => j.on('c.id', 'v.channel_id').andOn('c.workspace_id', 'v.workspace_id'))
    .where({ 'v.visitor_id': visitorId, 'c.identifier': m[1], 'c.type': 'widget' })
    .first('v.visitor_id');
  return Boolean(row);
}

/** topic_path: SUBSCRIBE (read) and PUBLISH (write) on one topic, exact names only (DESIGN.md §6). */
export async function answerRabbitTopic(deps: Pick<AppDeps, 'knex'>, p: RabbitParams): Promise<RabbitAnswer> {
  const identity = who(p.username);
  if (!identity || p.resource !== 'topic' || !p.routing_key) return 'deny';
  const topic = topicOf(p.routing_key);
  if (identity.kind === 'internal') return topic.startsWith('$') ? 'deny' : 'allow';
  if (p.permission !== 'read') return 'deny';
  if (identity.kind === 'visitor') return (await visitorOwns(deps.knex, identity.visitorId, topic)) ? 'allow' : 'deny';
  const workspaceId = Number(/^ws\/([1-9][0-9]{0,9})\//.exec(topic)?.[1] ?? 0);
  const family = topicFamilyOf(topic);
  if (!workspaceId || (!family && !operatorTopics(workspaceId, identity.operatorId).includes(topic))) return 'deny';
  const member = await membershipCacheFor(deps.knex).get(workspaceId, identity.operatorId, (f) => f.isActive);
  if (!member?.isActive) return 'deny';
  // A team room (docs/team-chat.md): only a room they are in now, read at each SUBSCRIBE (behind the broker's cache).
  if (family) return (await family.allows(deps.knex, { workspaceId, operatorId: identity.operatorId }, topic)) ? 'allow' : 'deny';
  return 'allow';
}
