import { createHash, timingSafeEqual } from 'node:crypto';
import type { AppDeps } from '../deps';
import type { Config } from '../config';
import { INTERNAL_USERNAME, authenticateConnect, mayPublish, maySubscribe, type MqttIdentity } from './access';
import type { MqttAclHookReq, MqttAuthHookReq } from './schema';
import { topics } from './publisher';
import { familyTopicsOf } from './topicFamilies';

/**
 * Whether the hooks answer at all: only for an external broker (MQTT_URL) that proves itself with
 * MQTT_HOOK_SECRET. With the embedded broker nothing needs them, and a public copy of the CONNECT check
 * would only be an oracle for tokens, so they are a 404 like any route that does not exist.
 */
export function hooksEnabled(config: Pick<Config, 'mqttUrl' | 'mqttHookSecret'>): boolean {
  return Boolean(config.mqttUrl && config.mqttHookSecret);
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * The broker's `Authorization: Bearer <MQTT_HOOK_SECRET>`, compared in constant time (both sides hashed
 * first, so neither the length nor a prefix of the secret shows in the timing).
 */
export function isBrokerRequest(config: Pick<Config, 'mqttHookSecret'>, authorization: string | undefined): boolean {
  if (!config.mqttHookSecret) return false;
  const m = /^Bearer (.+)$/.exec(authorization ?? '');
  const ok = timingSafeEqual(digest(m?.[1] ?? ''), digest(config.mqttHookSecret));
  return ok && m !== null;
}

/** EMQX 5 ACL rule (the "new format" accepted in an HTTP authentication answer since 5.8). */
interface AclRule {
  permission: 'allow' | 'deny';
  action: 'publish' | 'subscribe' | 'all';
  topic: string;
}

export type AuthHookAnswer =
  | { result: 'deny' }
  | { result: 'allow'; is_superuser: false; client_attrs: Record<string, string>; acl: AclRule[]; expire_at?: number };

/** The answer to POST /api/mqtt/auth: the embedded broker's CONNECT check, plus what the broker needs for ACL. */
export async function answerAuthHook(deps: Pick<AppDeps, 'config' | 'knex'>, body: MqttAuthHookReq): Promise<AuthHookAnswer> {
  const decision = await authenticateConnect(deps, { clientId: body.clientid, username: body.username, password: body.password });
  if (!decision.ok) return { result: 'deny' };
  const identity = decision.identity;
  if (identity.kind === 'internal') {
    return { result: 'allow', is_superuser: false, client_attrs: { role: 'internal' }, acl: [{ permission: 'allow', action: 'all', topic: '#' }] };
  }
  if (identity.kind === 'visitor') {
    // Visitors get their one topic as an `acl` rule; the ACL hook below has no attribute to rebuild the
    // channel from and denies them, so visitors need EMQX ≥ 5.8 (docs/realtime.md).
    return {
      result: 'allow',
      is_superuser: false,
      client_attrs: { role: 'visitor' },
      acl: [
        { permission: 'allow', action: 'subscribe', topic: `eq ${topics.widget(identity.channelIdentifier, identity.visitorId)}` },
        { permission: 'deny', action: 'all', topic: '#' },
      ],
    };
  }
  const { workspaceId, operatorId, expiresAt } = identity;
  // The family topics (team rooms they are in) at CONNECT (docs/team-chat.md "Realtime"): with EMQX a room joined
  // later is heard from the next connection (the token's renewal reconnects), a room left is cut with the session.
  const extra = (await familyTopicsOf(deps.knex, { workspaceId, operatorId })).filter((t) => t.startsWith(`ws/${workspaceId}/`));
  return {
    result: 'allow',
    is_superuser: false,
    client_attrs: { role: 'operator', workspace_id: String(workspaceId), operator_id: String(operatorId) },
    // `eq` makes EMQX compare the filter literally, so a wildcard subscription never matches these rules.
    acl: [
      { permission: 'allow', action: 'subscribe', topic: `eq ws/${workspaceId}/op/${operatorId}` },
      { permission: 'allow', action: 'subscribe', topic: `eq ws/${workspaceId}/all` },
      ...extra.map((topic): AclRule => ({ permission: 'allow', action: 'subscribe', topic: `eq ${topic}` })),
      { permission: 'deny', action: 'all', topic: '#' },
    ],
    ...(expiresAt === undefined ? {} : { expire_at: Math.floor(expiresAt / 1000) }),
  };
}

/**
 * The identity behind an ACL request, rebuilt from the client attributes our auth hook handed to the
 * broker. Anything that does not add up (a missing attribute, an unfilled placeholder) is nobody.
 */
function aclIdentity(body: MqttAclHookReq): MqttIdentity | undefined {
  if (body.role === 'internal' && body.username === INTERNAL_USERNAME) return { kind: 'internal' };
  if (body.role !== 'operator') return undefined;
  if (!/^[1-9][0-9]{0,9}$/.test(body.username) || !/^[1-9][0-9]{0,9}$/.test(body.workspace_id ?? '')) return undefined;
  return { kind: 'operator', workspaceId: Number(body.workspace_id), operatorId: Number(body.username) };
}

/** The answer to POST /api/mqtt/acl: the embedded broker's SUBSCRIBE/PUBLISH checks. */
export async function answerAclHook(deps: Pick<AppDeps, 'knex'>, body: MqttAclHookReq): Promise<{ result: 'allow' | 'deny' }> {
  const identity = aclIdentity(body);
  if (!identity) return { result: 'deny' };
  const allowed = body.action === 'subscribe' ? await maySubscribe(deps, identity, body.topic) : mayPublish(identity, body.topic);
  return { result: allowed ? 'allow' : 'deny' };
}
