import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { AppDeps } from '../../api/deps';
import type { AccessLevelValue } from '../../api/policy/levels';
import type { ChannelType } from '../../api/channels/adapter';
import { PLATFORM_IDS } from '../../api/models/Channel';
import { receiveInbound } from '../../api/inbound/receiveInbound';
import type { InboundMessage, InboundResult } from '../../api/conversations/types';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';

let seq = 0;
const next = (prefix: string) => `${prefix}-${process.pid}-${++seq}-${randomBytes(3).toString('hex')}`;

export interface TestChannel {
  id: number;
  workspaceId: number;
  type: ChannelType;
  identifier: string;
}

/** A new workspace, an operator of `level` in it and a widget channel: where an inbox test starts. */
export async function freshInbox(knex: Knex, jwtSecret: string, level: AccessLevelValue = 10): Promise<{ ws: TestWorkspace; op: TestOperator; channel: TestChannel }> {
  const ws = await makeWorkspace(knex);
  const op = await makeOperator(knex, jwtSecret, ws, level);
  return { ws, op, channel: await makeChannel(knex, ws) };
}

/** A channel row straight in the table (the widget work owns creating them through the API). */
export async function makeChannel(knex: Knex, ws: TestWorkspace, type: ChannelType = 'widget', overrides: Record<string, unknown> = {}): Promise<TestChannel> {
  const [row] = await knex('channels')
    .insert({ workspaceId: ws.id, type, platformId: PLATFORM_IDS[type], name: `Canal ${type}`, description: `Canal ${type}`, status: 'connected', identifier: next('ch'), ...overrides })
    .returning(['id', 'workspace_id', 'type', 'identifier']);
  return row as TestChannel;
}

export async function makeGroup(knex: Knex, ws: TestWorkspace, members: number[] = []): Promise<number> {
  const [row] = await knex('groups').insert({ workspaceId: ws.id, name: next('Grupo') }).returning('id');
  if (members.length) await knex('group_members').insert(members.map((operatorId) => ({ workspaceId: ws.id, groupId: row.id, operatorId })));
  return row.id as number;
}

export async function makeLabel(knex: Knex, ws: TestWorkspace, name = next('Etiqueta')): Promise<number> {
  const [row] = await knex('labels').insert({ workspaceId: ws.id, name, color: '#D1FADF', textColor: '#027A48' }).returning('id');
  return row.id as number;
}

export function inboundMessage(channel: TestChannel, overrides: Partial<InboundMessage> = {}): InboundMessage {
  const visitor = overrides.identity?.externalId ?? next('visitante');
  return {
    workspaceId: channel.workspaceId,
    channelId: channel.id,
    externalId: next('evt'),
    identity: { externalId: visitor, name: `Cliente ${visitor}` },
    content: [{ insert: 'Olá, preciso de ajuda\n' }],
    ...overrides,
  };
}

export interface TestConversation extends InboundResult {
  visitor: string;
}

/**
 * A conversation built the way production builds them: through receiveInbound. `operatorId`/`groupId`
 * are then set directly (assignment rules are not the subject of these tests).
 */
export async function makeConversation(
  deps: AppDeps,
  channel: TestChannel,
  options: { visitor?: string; name?: string; text?: string; operatorId?: number | null; groupId?: number | null; read?: boolean } = {},
): Promise<TestConversation> {
  const visitor = options.visitor ?? next('visitante');
  const result = await receiveInbound(
    deps,
    inboundMessage(channel, {
      identity: { externalId: visitor, name: options.name ?? `Cliente ${visitor}` },
      content: [{ insert: `${options.text ?? 'Olá'}\n` }],
    }),
  );
  const patch: Record<string, unknown> = {};
  if (options.operatorId !== undefined) patch.operatorId = options.operatorId;
  if (options.groupId !== undefined) patch.groupId = options.groupId;
  if (options.read) patch.hasNewMessages = false;
  if (Object.keys(patch).length) {
    await deps.knex('customer_platforms').where({ id: result.conversationId }).update(patch);
    const callPatch = { ...patch };
    delete callPatch.hasNewMessages;
    if (Object.keys(callPatch).length) await deps.knex('calls').where({ id: result.callId }).update(callPatch);
  }
  return { ...result, visitor };
}

/** Text of a Delta message as sent by the composer. */
export const delta = (text: string) => [{ insert: `${text}\n` }];
