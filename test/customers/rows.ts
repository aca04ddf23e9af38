import type { Knex } from 'knex';
import { makeOperator, makeWorkspace, unique, type TestOperator, type TestWorkspace } from '../helpers/factories';

/**
 * Inbox rows inserted directly (the inbound pipeline is another area): a channel, a customer and its
 * conversations (customer platforms) with a call each, and messages.
 */
export async function makeChannel(knex: Knex, workspaceId: number, type: 'widget' | 'telegram' | 'whatsapp' = 'widget'): Promise<{ id: number }> {
  const platformId = { whatsapp: 1, telegram: 2, widget: 4 }[type];
  const [row] = await knex('channels').insert({ workspaceId, platformId, type, name: unique('canal'), description: `Canal ${type}` }).returning('id');
  return row;
}

export async function makeGroup(knex: Knex, workspaceId: number, memberIds: number[] = []): Promise<{ id: number }> {
  const [row] = await knex('groups').insert({ workspaceId, name: unique('grupo') }).returning('id');
  for (const operatorId of memberIds) await knex('group_members').insert({ workspaceId, groupId: row.id, operatorId });
  return row;
}

export async function makeLabel(knex: Knex, workspaceId: number): Promise<{ id: number }> {
  const [row] = await knex('labels').insert({ workspaceId, name: unique('tag'), color: '#D1FADF', textColor: '#027A48' }).returning('id');
  return row;
}

export interface CustomerFields {
  name?: string | null;
  phone?: string | null;
  email?: string | null;
  details?: string | null;
  avatar?: string | null;
}

export async function makeCustomer(knex: Knex, workspaceId: number, fields: CustomerFields = {}): Promise<{ id: number }> {
  const [row] = await knex('customers').insert({ workspaceId, name: unique('Cliente'), ...fields }).returning('id');
  return row;
}

export interface ConversationRow {
  id: number;
  callId: number;
  protocol: number;
}

/** A conversation of `customerId` in `channelId` with one open call. */
export async function makeConversation(
  knex: Knex,
  workspaceId: number,
  channelId: number,
  customerId: number,
  options: { operatorId?: number | null; groupId?: number | null; finished?: boolean } = {},
): Promise<ConversationRow> {
  const ids = await knex.transaction(async (trx) => {
    const [cp] = await trx('customer_platforms')
      .insert({ workspaceId, channelId, customerId, externalId: unique('ext'), operatorId: options.operatorId ?? null, groupId: options.groupId ?? null })
      .returning('id');
    const finished = options.finished ?? false;
    const [call] = await trx('calls')
      .insert({ workspaceId, customerPlatformId: cp.id, operatorId: options.operatorId ?? null, isFinished: finished, finishedAt: finished ? new Date() : null })
      .returning('id');
    await trx('customer_platforms').where({ id: cp.id }).update({ currentCallId: call.id, isFinished: finished });
    return { id: cp.id as number, callId: call.id as number };
  });
  // The protocol is numbered at commit.
  const { protocol } = await knex('calls').where({ id: ids.callId }).first('protocol');
  return { ...ids, protocol };
}

export async function makeMessage(
  knex: Knex,
  workspaceId: number,
  conversation: ConversationRow,
  options: { media?: { key: string; fileName: string; mime: string; size: number }; text?: string; createdAt?: Date; deleted?: boolean } = {},
): Promise<{ id: number }> {
  const content = options.media ? [{ file: options.media }] : [{ insert: `${options.text ?? 'Olá'}\n` }];
  const [row] = await knex('messages')
    .insert({
      workspaceId,
      customerPlatformId: conversation.id,
      callId: conversation.callId,
      content: JSON.stringify(content),
      text: options.media ? options.media.fileName : (options.text ?? 'Olá'),
      sender: 'customer',
      isMedia: Boolean(options.media),
      isDeleted: options.deleted ?? false,
      createdAt: options.createdAt ?? new Date(),
    })
    .returning('id');
  return row;
}

/** A workspace with an owner (level 10), a master (6) and an agent (3), and the owner of another workspace. */
export async function makeTeam(knex: Knex, jwtSecret: string): Promise<{ ws: TestWorkspace; owner: TestOperator; master: TestOperator; agent: TestOperator; stranger: TestOperator }> {
  const ws = await makeWorkspace(knex);
  const owner = await makeOperator(knex, jwtSecret, ws, 10);
  const master = await makeOperator(knex, jwtSecret, ws, 6);
  const agent = await makeOperator(knex, jwtSecret, ws, 3);
  const stranger = await makeOperator(knex, jwtSecret, await makeWorkspace(knex), 10);
  return { ws, owner, master, agent, stranger };
}
