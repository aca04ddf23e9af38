import { timingSafeEqual, createHash } from 'node:crypto';
import { decodeJwt } from 'jose';
import type { AppDeps } from '../deps';
import { resolveActor } from '../auth/authenticate';
import { VISITOR_ID, findVisitorByToken } from '../auth/visitorSessions';
import { topics } from './publisher';
import { topicFamilyOf } from './topicFamilies';

/**
 * Who is on the other end of an MQTT session. The embedded broker and the HTTP hooks for an external
 * broker both decide with the functions of this module, so the two setups cannot drift apart.
 */
export type MqttIdentity =
  | { kind: 'internal' }
  | { kind: 'operator'; workspaceId: number; operatorId: number; /** token expiry, epoch ms */ expiresAt?: number }
  | { kind: 'visitor'; channelIdentifier: string; visitorId: string };

/** MQTT 3.1.1 CONNACK return codes used by the refusals below. */
export const ConnectRefusal = {
  identifierRejected: 2,
  serverUnavailable: 3,
  badCredentials: 4,
  notAuthorized: 5,
} as const;
export type ConnectRefusalCode = (typeof ConnectRefusal)[keyof typeof ConnectRefusal];

export type ConnectDecision = { ok: true; identity: MqttIdentity } | { ok: false; code: ConnectRefusalCode; reason: string };

export interface ConnectRequest {
  clientId: string;
  username: string | undefined;
  password: string | undefined;
}

export const INTERNAL_USERNAME = 'internal';
const VISITOR_PREFIX = 'visitor:';
const OPERATOR_USERNAME = /^[1-9][0-9]{0,9}$/;
// Wildcards and level separators in a client id or username would let a name be read as a topic
// pattern wherever ids end up in topics or ACL templates.
const RESERVED_CHARS = /[#+/]/;

function sameSecret(given: string, expected: string): boolean {
  // Hashing first gives equal-length buffers, so the comparison time does not reveal the length.
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

function refuse(code: ConnectRefusalCode, reason: string): ConnectDecision {
  return { ok: false, code, reason };
}

/**
 * A website widget visitor: username `visitor:{visitorId}`, password their visitor session token
 * (api/widget/visitors.ts). The token must belong to that visitor id, of a widget channel that still
 * exists. Refusals answer 5 (not authorized), whatever the reason, so nothing tells a guess apart.
 */
async function authenticateVisitor(deps: Pick<AppDeps, 'config' | 'knex'>, visitorId: string, token: string): Promise<ConnectDecision> {
  if (!VISITOR_ID.test(visitorId)) return refuse(ConnectRefusal.notAuthorized, 'visitante inválido');
  const session = await findVisitorByToken(deps.knex, token);
  if (!session || session.visitorId !== visitorId) return refuse(ConnectRefusal.notAuthorized, 'token de visitante inválido');
  return { ok: true, identity: { kind: 'visitor', channelIdentifier: session.channelIdentifier, visitorId } };
}

/** The CONNECT check: operator id + workspace token, or the internal credential of server processes. */
export async function authenticateConnect(deps: Pick<AppDeps, 'config' | 'knex'>, req: ConnectRequest): Promise<ConnectDecision> {
  const { clientId, username, password } = req;
  if (RESERVED_CHARS.test(clientId)) return refuse(ConnectRefusal.identifierRejected, 'client id com caractere reservado');
  if (!username || !password) return refuse(ConnectRefusal.badCredentials, 'usuário ou senha ausente');
  if (RESERVED_CHARS.test(username)) return refuse(ConnectRefusal.badCredentials, 'usuário com caractere reservado');

  if (username === INTERNAL_USERNAME) {
    return sameSecret(password, deps.config.mqttInternalPassword)
      ? { ok: true, identity: { kind: 'internal' } }
      : refuse(ConnectRefusal.badCredentials, 'credencial interna inválida');
  }
  if (username.startsWith(VISITOR_PREFIX)) return authenticateVisitor(deps, username.slice(VISITOR_PREFIX.length), password);
  if (!OPERATOR_USERNAME.test(username)) return refuse(ConnectRefusal.badCredentials, 'usuário inválido');

  const actor = await resolveActor(deps, password);
  if (!actor || actor.operatorId !== Number(username)) return refuse(ConnectRefusal.badCredentials, 'token inválido para este usuário');
  const exp = decodeJwt(password).exp;
  return {
    ok: true,
    identity: { kind: 'operator', workspaceId: actor.workspaceId, operatorId: actor.operatorId, expiresAt: exp === undefined ? undefined : exp * 1000 },
  };
}

/** The only topics an operator may subscribe to, and so the only ones they may ever receive. */
export function operatorTopics(workspaceId: number, operatorId: number): string[] {
  return [topics.operator(workspaceId, operatorId), topics.workspace(workspaceId)];
}

/**
 * A topic of a registered family (the team chat's rooms, topicFamilies.ts) under the operator's own
 * workspace, when its area says they may hear it now (a team room: they are in it; read at every SUBSCRIBE,
 * so a member removed from a room or its group cannot subscribe again; their live sessions are ended when
 * it happens, docs/team-chat.md "Realtime").
 */
async function familyAllows(deps: Pick<AppDeps, 'knex'>, identity: { workspaceId: number; operatorId: number }, topic: string): Promise<boolean> {
  const family = topicFamilyOf(topic);
  if (!family || !topic.startsWith(`ws/${identity.workspaceId}/`)) return false;
  return family.allows(deps.knex, { workspaceId: identity.workspaceId, operatorId: identity.operatorId }, topic);
}

/**
 * Exact topic names only: a wildcard filter is refused even when everything it matches would be allowed.
 * An operator hears their own topic, their workspace's, and the family topics (team rooms) they are let in.
 */
export async function maySubscribe(deps: Pick<AppDeps, 'knex'>, identity: MqttIdentity, topic: string): Promise<boolean> {
  if (identity.kind === 'internal') return true;
  // A visitor hears their own conversation only: one exact topic.
  if (identity.kind === 'visitor') return topic === topics.widget(identity.channelIdentifier, identity.visitorId);
  if (operatorTopics(identity.workspaceId, identity.operatorId).includes(topic)) return true;
  return familyAllows(deps, identity, topic);
}

/** Whether a topic is a family's (team rooms): its subscriptions are granted one by one (see mayReceive). */
export function isFamilyTopic(topic: string): boolean {
  return topicFamilyOf(topic) !== undefined;
}

/** Browsers (operators and widget visitors) never publish (typing goes through HTTP); only server processes do. */
export function mayPublish(identity: MqttIdentity, topic: string): boolean {
  return identity.kind === 'internal' && !topic.startsWith('$');
}

/**
 * Last line of defence at delivery time, in case a subscription slipped past the checks above. It cannot
 * wait for the database: a family topic's events (a team room's) reach a session only on a topic of its
 * workspace that maySubscribe granted to it (`granted`, kept by the broker per session).
 */
export function mayReceive(identity: MqttIdentity, topic: string, granted?: ReadonlySet<string>): boolean {
  if (identity.kind === 'internal') return true;
  if (identity.kind === 'visitor') return topic === topics.widget(identity.channelIdentifier, identity.visitorId);
  if (operatorTopics(identity.workspaceId, identity.operatorId).includes(topic)) return true;
  return isFamilyTopic(topic) && topic.startsWith(`ws/${identity.workspaceId}/`) && granted !== undefined && granted.has(topic);
}

export function sameIdentity(a: MqttIdentity, b: MqttIdentity): boolean {
  if (a.kind === 'internal' || b.kind === 'internal') return a.kind === b.kind;
  if (a.kind === 'visitor' || b.kind === 'visitor') {
    return a.kind === 'visitor' && b.kind === 'visitor' && a.channelIdentifier === b.channelIdentifier && a.visitorId === b.visitorId;
  }
  return a.workspaceId === b.workspaceId && a.operatorId === b.operatorId;
}
