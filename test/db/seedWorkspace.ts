import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';

const hex = (n = 6) => randomBytes(n).toString('hex');
const json = (v: unknown) => JSON.stringify(v);

export const WEEK = Object.fromEntries(
  ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, { active: true, hours: [{ startHourIndex: 0, endHourIndex: 2 }] }]),
);

/** Ids of what `seedWorkspace` created. */
export interface SeededWorkspace {
  workspaceId: number;
  operatorId: number;
  groupId: number;
  labelId: number;
  channelId: number;
  botId: number;
  customerId: number;
  conversationId: number;
  callId: number;
  messageId: number;
}

/** Tables the inbox/settings/billing migrations create that belong to one workspace. */
export const TENANT_TABLES = [
  'groups',
  'group_members',
  'quick_phrases',
  'business_hours',
  'channels',
  'bots',
  'customers',
  'customer_properties',
  'stored_files',
  'segments',
  'segment_subscriptions',
  'customer_platforms',
  'customer_platform_favorites',
  'call_protocol_counters',
  'calls',
  'call_labels',
  'messages',
  'inbound_events',
  'bot_sessions',
  'operator_sessions',
  'assignment_rules',
  'webhooks',
  'webhook_deliveries',
  'plugins',
  'api_secrets',
  'campaigns',
  'campaign_numbers',
  'coupon_redemptions',
  'invoices',
  'invoice_transactions',
  'test_mode_charges',
  'contracts',
] as const;

async function insertId(knex: Knex, table: string, row: Record<string, unknown>): Promise<number> {
  const [r] = await knex(table).insert(row).returning('id');
  return (r as { id: number }).id;
}

export async function makeMember(knex: Knex, workspaceId: number, accessLevel = 3): Promise<number> {
  const operatorId = await insertId(knex, 'operators', { name: 'Pessoa', email: `p-${hex()}@exemplo.com.br` });
  await knex('workspace_members').insert({ workspaceId, operatorId, accessLevel });
  return operatorId;
}

/** A conversation (customer + customer platform) in `channelId`, with an open call. */
export async function makeConversation(knex: Knex, workspaceId: number, channelId: number, customerId?: number) {
  customerId ??= await insertId(knex, 'customers', { workspaceId, name: `Cliente ${hex(2)}`, phone: `55119${hex(4)}` });
  const conversationId = await insertId(knex, 'customer_platforms', { workspaceId, channelId, customerId, externalId: hex() });
  const callId = await insertId(knex, 'calls', { workspaceId, customerPlatformId: conversationId });
  await knex('customer_platforms').where({ id: conversationId }).update({ currentCallId: callId });
  return { customerId, conversationId, callId };
}

/** A workspace with at least one row in every table of TENANT_TABLES. */
export async function seedWorkspace(knex: Knex): Promise<SeededWorkspace> {
  const workspaceId = await insertId(knex, 'workspaces', { name: `Empresa ${hex(2)}`, customerIdentifier: hex(12) });
  const operatorId = await makeMember(knex, workspaceId, 10);
  const labelId = await insertId(knex, 'labels', { workspaceId, name: `Tag ${hex(2)}`, color: '#ff0000', textColor: '#ffffff' });

  const groupId = await insertId(knex, 'groups', { workspaceId, name: `Grupo ${hex(2)}` });
  await knex('group_members').insert({ workspaceId, groupId, operatorId });
  await knex('quick_phrases').insert({ workspaceId, operatorId, phrase: 'Bom dia!', tag: '/bomdia', privacy: 'private' });
  await knex('business_hours').insert({ workspaceId, name: 'Comercial', days: json(WEEK) });
  const channelId = await insertId(knex, 'channels', { workspaceId, platformId: 4, type: 'widget', name: 'Site' });
  const botId = await insertId(knex, 'bots', { workspaceId, name: 'Bot', definition: json({ channels: [channelId], paths: [] }) });
  await knex('stored_files').insert({ workspaceId, key: `files/${hex()}`, fileName: 'a.png', mime: 'image/png', size: 10, operatorId });
  const segmentId = await insertId(knex, 'segments', { workspaceId, operatorId, name: 'Abertas', filters: json({ open: true }) });
  await knex('segment_subscriptions').insert({ workspaceId, segmentId, operatorId });

  const { customerId, conversationId, callId } = await makeConversation(knex, workspaceId, channelId);
  await knex('customer_properties').insert({ workspaceId, customerId, label: 'CPF', code: 'cpf', value: '12345678901' });
  await knex('customer_platforms').where({ id: conversationId }).update({ operatorId, groupId, botId });
  await knex('customer_platform_favorites').insert({ workspaceId, operatorId, customerPlatformId: conversationId });
  await knex('call_labels').insert({ workspaceId, callId, labelId, operatorId });
  const messageId = await insertId(knex, 'messages', {
    workspaceId,
    customerPlatformId: conversationId,
    callId,
    externalId: hex(),
    content: json([{ insert: 'Olá, preciso de ajuda\n' }]),
    text: 'Olá, preciso de ajuda',
    sender: 'customer',
  });
  await knex('messages').insert({ workspaceId, customerPlatformId: conversationId, callId, content: json([{ insert: 'Oi!' }]), text: 'Oi!', sender: 'operator', operatorId, replyToId: messageId, type: 0 });
  await knex('inbound_events').insert({ workspaceId, channelId, externalId: hex(), payload: json({ text: 'Olá' }) });
  await knex('bot_sessions').insert({ workspaceId, customerPlatformId: conversationId, botId, callId, workflowId: `bot-session:${conversationId}` });
  await knex('operator_sessions').insert({ workspaceId, operatorId, clientId: hex() });

  await knex('assignment_rules').insert({ workspaceId, name: 'Regra', rules: json({ group: groupId, workspacePlatformId: channelId }), lastOperatorId: operatorId });
  const webhookId = await insertId(knex, 'webhooks', { workspaceId, url: 'https://exemplo.com.br/hook', subscriptions: ['message:received'], secret: hex() });
  await knex('webhook_deliveries').insert({ workspaceId, webhookId, event: 'message:received', payload: json({ id: messageId }) });
  await knex('plugins').insert({ workspaceId, name: 'CRM', endpoint: 'https://crm.exemplo.com.br', authSecret: hex() });
  await knex('api_secrets').insert({ workspaceId, secret: hex(), tokenHash: hex(32), createdBy: operatorId });
  const campaignId = await insertId(knex, 'campaigns', { workspaceId, channelId, name: 'Promoção', message: json([{ insert: 'Oferta\n' }]) });
  await knex('campaign_numbers').insert({ workspaceId, campaignId, phone: '5511999990000' });
  const couponId = await insertId(knex, 'coupons', { code: `CUPOM${hex(3)}`, percent: 10, charges: 3 });
  await knex('coupon_redemptions').insert({ workspaceId, couponId, chargesLeft: 3 });
  const invoiceId = await insertId(knex, 'invoices', {
    workspaceId,
    orderNumber: hex(8),
    plan: 'business',
    total: 44_900,
    amount: 44_900,
    expiresAt: new Date(Date.now() + 30 * 86_400_000),
  });
  await knex('invoice_transactions').insert({ workspaceId, invoiceId, method: 'pix', amount: 44_900 });
  await knex('test_mode_charges').insert({ workspaceId, providerReference: `test_pay_${hex(8)}`, customerReference: `test_cus_${workspaceId}`, orderNumber: hex(8), method: 'pix', amount: 44_900, dueDate: '2030-01-31' });
  await knex('contracts').insert({ workspaceId, name: 'Contrato', code: 'consignado', cpf: '12345678901' });

  return { workspaceId, operatorId, groupId, labelId, channelId, botId, customerId, conversationId, callId, messageId };
}
