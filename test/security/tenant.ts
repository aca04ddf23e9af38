import { expect } from 'chai';
import type { TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, unique, type TestOperator, type TestWorkspace } from '../helpers/factories';
import type { AccessLevelValue } from '../../api/policy/levels';
import { makeChannel, makeConversation } from '../inbox/factories';
import { PNG_1x1, upload } from '../assets/helpers';
import { localOf } from '../../api/schedules/recurrence';

/** The ids of one row of every kind a tenant owns: what route parameters and body references name. */
export interface TenantIds {
  workspace: number;
  operator: number;
  label: number;
  label2: number;
  group: number;
  segment: number;
  quickPhrase: number;
  plugin: number;
  businessHours: number;
  assignmentRule: number;
  channel: number;
  /** The widget's public routing key. */
  channelIdentifier: string;
  conversation: number;
  call: number;
  message: number;
  customer: number;
  customer2: number;
  property: number;
  delivery: number;
  bot: number;
  /** A WhatsApp QR line and a Telegram line (rows only: no connection, no bot) and an e-mail channel, for their settings routes. */
  whatsappLine: number;
  telegramLine: number;
  emailChannel: number;
  /** A paused campaign on the widget channel (rows only: no workflow runs for it). */
  campaign: number;
  /** The workspace's paid plan (limits no route reaches, no campaigns), and an unpaid invoice of it whose transaction was never charged. */
  subscription: number;
  invoice: number;
  invoiceTransaction: number;
  /** A contract waiting for formalization, with data and the tenant's uploaded file as its file (rows only: no import workflow). */
  contract: number;
  /** A pending scheduled message in the widget conversation, made through the API (its workflow waits for a worker that never comes). */
  scheduledMessage: number;
  /** A team chat room made at level 10 with every member of the tenant, and a message of the level-9 member in it (docs/team-chat.md). */
  teamRoom: number;
  teamMessage: number;
  /** A kanban funnel with one stage (docs/kanban.md), made through the API. */
  funnel: number;
  stage: number;
  assetKey: string;
  avatarKey: string;
}

export interface Tenant {
  ws: TestWorkspace;
  owner: TestOperator;
  /** One member per level (10 is the owner). */
  byLevel: Record<AccessLevelValue, TestOperator>;
  /** A level-2 member that edits of members can target. */
  agent: TestOperator;
  ids: TenantIds;
}

async function created(res: { status: number; body: any }, what: string): Promise<number> {
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).to.be.oneOf([200, 201]);
  return res.body.data.id as number;
}

/**
 * A workspace with one row of every kind, made the way users make them (through the API) where the API
 * can, and inserted directly where it would need the outside world (plugin and webhook URLs are
 * DNS-checked; deliveries come from events).
 */
export async function seedTenant(api: TestApi): Promise<Tenant> {
  const { knex } = api.deps;
  const secret = api.config.jwtSecret;
  const ws = await makeWorkspace(knex);
  const owner = await makeOperator(knex, secret, ws, 10);
  const byLevel = { 10: owner } as Record<AccessLevelValue, TestOperator>;
  for (const level of [9, 6, 3, 2] as AccessLevelValue[]) byLevel[level] = await makeOperator(knex, secret, ws, level);
  const agent = await makeOperator(knex, secret, ws, 2);
  const t = owner.token;
  const post = (path: string, body: unknown) => api.request('POST', path, { token: t, body });

  const label = await created(await post('/api/label', { name: unique('Vip').slice(0, 50), color: '#D1FADF', textColor: '#027A48' }), 'label');
  const label2 = await created(await post('/api/label', { name: unique('Novo').slice(0, 50), color: '#D1FADF', textColor: '#027A48' }), 'label2');
  const group = await created(await post('/api/group', { name: unique('Grupo').slice(0, 70), members: [byLevel[3].id, agent.id] }), 'group');
  const segment = await created(await post('/api/inbox/segments', { name: 'Filtro', isPublic: true }), 'segment');
  const quickPhrase = await created(await post('/api/inbox/quick-phrases', { phrase: 'Olá!', tag: unique('ola').slice(0, 40), privacy: 'public' }), 'quick phrase');
  const businessHours = await created(await post('/api/business-hours', { name: 'Comercial' }), 'business hours');
  const channel = await created(await post('/api/integrations/widget', { description: 'Site', avatar: '#123456' }), 'widget channel');
  const assignmentRule = await created(await post('/api/assignment-rules', { name: 'Regra', isActive: false, rules: { group, workspacePlatformId: channel } }), 'assignment rule');

  const [plugin] = await knex('plugins').insert({ workspaceId: ws.id, name: 'Plugin', endpoint: 'https://plugin.exemplo.com.br/p', authSecret: unique('s') }).returning('id');
  const [hook] = await knex('webhooks').insert({ workspaceId: ws.id, url: 'https://hooks.exemplo.com.br/x', subscriptions: ['message:received'], secret: `whsec_${unique('x')}` }).returning('id');
  const [delivery] = await knex('webhook_deliveries').insert({ workspaceId: ws.id, webhookId: hook.id, event: 'message:received', payload: JSON.stringify({ ok: true }), status: 'failed' }).returning('id');
  const [bot] = await knex('bots').insert({ workspaceId: ws.id, name: 'Robô', definition: JSON.stringify({}) }).returning('id');
  const [whatsappLine] = await knex('channels')
    .insert({ workspaceId: ws.id, platformId: 1, type: 'whatsapp', name: 'Vendas', description: 'Vendas', phone: '5511912345678', status: 'disconnected', identifier: unique('wa').replace(/[^a-z0-9]/gi, '').slice(0, 32), config: JSON.stringify({ provider: 'qr' }) })
    .returning('id');
  const [telegramLine] = await knex('channels')
    .insert({ workspaceId: ws.id, platformId: 2, type: 'telegram', name: '@bot_da_loja', description: 'Bot', status: 'connected', identifier: unique('tg').replace(/[^a-z0-9]/gi, '').slice(0, 32), config: JSON.stringify({}) })
    .returning('id');
  const emailChannel = await created(await post('/api/integrations/mail', { description: 'Suporte' }), 'e-mail channel');
  const [subscription] = await knex('subscriptions')
    .insert({ workspaceId: ws.id, license: 'business', status: 'active', agents: 999, numbers: 99, instagramUnits: 99, campaignUnits: 0, months: 1, total: 44_900, expiresAt: new Date(Date.now() + 30 * 86_400_000) })
    .returning('id');
  const [invoice] = await knex('invoices')
    .insert({ workspaceId: ws.id, subscriptionId: subscription.id, orderNumber: unique('T').replace(/[^A-Za-z0-9]/g, '').slice(0, 40), plan: 'business', total: 44_900, amount: 44_900, expiresAt: new Date(Date.now() + 30 * 86_400_000), payerName: 'Empresa', payerDocument: '52998224725', payerEmail: owner.email })
    .returning('id');
  const [invoiceTransaction] = await knex('invoice_transactions').insert({ workspaceId: ws.id, invoiceId: invoice.id, method: 'pix', amount: 44_900 }).returning('id');
  const [campaign] = await knex('campaigns').insert({ workspaceId: ws.id, channelId: channel, name: 'Campanha', message: JSON.stringify([{ insert: 'Olá\n' }]), status: 'paused' }).returning('id');

  const channelRow = await knex('channels').where({ id: channel }).first('id', 'workspace_id', 'type', 'identifier');
  const conv = await makeConversation(api.deps, { ...channelRow, workspaceId: ws.id } as never);
  const conv2 = await makeConversation(api.deps, await makeChannel(knex, ws));
  const cp = await knex('customer_platforms').where({ id: conv.conversationId }).first('customer_id');
  const cp2 = await knex('customer_platforms').where({ id: conv2.conversationId }).first('customer_id');
  const prop = await post(`/api/inbox/customer/${cp.customerId}/properties`, { label: 'Cidade', value: 'Recife' });
  expect(prop.status, JSON.stringify(prop.body)).to.equal(200);
  const property = (await knex('customer_properties').where({ customerId: cp.customerId }).first('id')).id as number;

  const up = await upload(api, t, [{ name: 'foto.png', bytes: PNG_1x1, type: 'image/png' }]);
  expect(up.status, JSON.stringify(up.body)).to.be.oneOf([200, 201]);
  const assetKey = (await knex('stored_files').where({ workspaceId: ws.id }).orderBy('id', 'desc').first('key')).key as string;
  const form = new FormData();
  form.append('avatar', new Blob([PNG_1x1], { type: 'image/png' }), 'a.png');
  const av = await fetch(`${api.url}/api/workspace/avatar`, { method: 'POST', body: form, headers: { Authorization: `Bearer ${t}` } });
  expect(av.status).to.equal(201);
  const [contract] = await knex('contracts')
    .insert({ workspaceId: ws.id, name: 'Contrato', code: 'consignado', status: 'processed', cpf: '52998224725', loanNumber: unique('CT'), json: JSON.stringify({ nome: 'Contrato' }), path: assetKey, fileName: 'foto.png' })
    .returning('id');
  const scheduledMessage = await created(await post('/api/schedules', { conversationId: conv.conversationId, sendAt: localOf(new Date(Date.now() + 86_400_000), 'America/Sao_Paulo'), text: 'Olá {{primeiro_nome}}' }), 'scheduled message');
  const teamRoom = await created(await post('/api/team/rooms', { name: 'Sala da equipe', members: [...Object.values(byLevel).map((m) => m.id), agent.id] }), 'team room');
  const teamMessage = await created(await api.request('POST', `/api/team/rooms/${teamRoom}/messages`, { token: byLevel[9].token, body: { body: 'Bom dia, equipe! #1' } }), 'team message');
  const funnelRes = await post('/api/funnels', { name: 'Funil', stages: [{ name: 'Etapa', color: '#2E90FA' }] });
  const funnel = await created(funnelRes, 'funnel');
  const stage = funnelRes.body.data.stages[0].id as number;
  const avatarKey = (await knex('stored_files').where({ workspaceId: ws.id }).where('key', 'like', 'av\\_%').orderBy('id', 'desc').first('key'))?.key as string;

  return {
    ws,
    owner,
    byLevel,
    agent,
    ids: {
      workspace: ws.id,
      operator: agent.id,
      label,
      label2,
      group,
      segment,
      quickPhrase,
      plugin: plugin.id,
      businessHours,
      assignmentRule,
      channel,
      channelIdentifier: channelRow.identifier as string,
      conversation: conv.conversationId,
      call: conv.callId,
      message: conv.messageId,
      customer: cp.customerId,
      customer2: cp2.customerId,
      property,
      delivery: Number(delivery.id),
      bot: bot.id,
      campaign: campaign.id,
      subscription: subscription.id,
      invoice: invoice.id,
      invoiceTransaction: invoiceTransaction.id,
      contract: contract.id,
      scheduledMessage,
      teamRoom,
      teamMessage,
      funnel,
      stage,
      whatsappLine: whatsappLine.id,
      telegramLine: telegramLine.id,
      emailChannel,
      assetKey,
      avatarKey,
    },
  };
}

/** Every table holding tenant rows (they all carry workspace_id; views left out), read once per run. */
const tablesOf = new WeakMap<object, Promise<string[]>>();
function tenantTables(api: TestApi): Promise<string[]> {
  let tables = tablesOf.get(api.deps.knex);
  if (!tables) {
    tables = api.deps
      .knex('information_schema.columns as c')
      .join('information_schema.tables as t', function () {
        this.on('t.table_schema', 'c.table_schema').andOn('t.table_name', 'c.table_name');
      })
      .where({ 'c.table_schema': 'public', 'c.column_name': 'workspace_id', 't.table_type': 'BASE TABLE' })
      .distinct('c.table_name')
      .then((rows: { tableName: string }[]) => rows.map((r) => r.tableName).sort());
    tablesOf.set(api.deps.knex, tables);
  }
  return tables;
}

/**
 * A digest of one workspace's rows per table, in one query: md5 of every row's text, in a stable order
 * (its tenant tables, its workspace row, its members' operator rows). Reads only that workspace's rows
 * (through the workspace_id indexes), so its cost does not grow with the rest of the run's database.
 */
async function digestTenant(api: TestApi, workspaceId: number): Promise<Record<string, string>> {
  const agg = "md5(coalesce(string_agg(x::text, '|' order by x::text), ''))";
  const parts: string[] = [];
  const bindings: number[] = [];
  for (const table of await tenantTables(api)) {
    parts.push(`select '${table}' as t, ${agg} as h from "${table}" x where x.workspace_id = ?`);
    bindings.push(workspaceId);
  }
  parts.push(`select 'workspaces' as t, ${agg} as h from workspaces x where x.id = ?`);
  parts.push(`select 'operators' as t, ${agg} as h from operators x where exists (select 1 from workspace_members m where m.operator_id = x.id and m.workspace_id = ?)`);
  bindings.push(workspaceId, workspaceId);
  const { rows } = await api.deps.knex.raw(parts.join(' union all '), bindings);
  return Object.fromEntries((rows as { t: string; h: string }[]).map((r) => [r.t, r.h]));
}

/** The rows of one tenant, digested per table (for "nothing changed" of a refused request inside the workspace). */
export function snapshotTenant(api: TestApi, workspaceId: number): Promise<Record<string, string>> {
  return digestTenant(api, workspaceId);
}

/** Names the tables whose rows differ between two snapshots (for a readable failure). */
export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys({ ...before, ...after }).filter((k) => before[k] !== after[k]);
}

/*
 * "Nothing outside the caller's workspace changed", at a cost that does not depend on the size of the
 * run's database (which holds every row the test files before this one left): instead of digesting
 * every other tenant's rows before and after each probe, row triggers on every tenant table, on
 * `workspaces` and on `operators` write each change (insert, update that changes the row's text,
 * delete; truncate too) to a log, with the owner of the row before and after (its workspace_id, the
 * workspace's id, the operator's id) and the transaction that made it. A probe remembers the database's
 * snapshot; afterwards, the changes whose transaction had not committed in that snapshot (so committed
 * since, or in flight then) and whose row, before or after, is not the caller's are the ones reported.
 * An insert undone by a delete, or an update undone by another, is reported too (the digests missed them).
 * Rows whose workspace_id is null belong to no workspace and are not looked at, as before.
 */
const LOG = 'security_probe_changes';
const TRIGGER = 'security_probe_log';

/**
 * Installs the log and its triggers (call in `before`); `unwatchOthers` removes all of it (call in
 * `after`: the files after this one share the database).
 */
export async function watchOthers(api: TestApi): Promise<void> {
  const { knex } = api.deps;
  const tables = await tenantTables(api);
  await unwatchOthers(api);
  await knex.transaction(async (trx) => {
    await trx.raw(`create unlogged table ${LOG} (
      id bigserial primary key,
      xid xid8 not null default pg_current_xact_id(),
      tbl text not null,
      truncated boolean not null default false,
      old_owner bigint,
      new_owner bigint,
      old_row text,
      new_row text
    )`);
    await trx.raw(`create index on ${LOG} (xid)`);
    // TG_ARGV[0]: the column naming the row's owner (workspace_id, or id for workspaces and operators).
    await trx.raw(`create function ${TRIGGER}() returns trigger language plpgsql as $$
      declare
        before_text text;
        after_text text;
        before_owner bigint;
        after_owner bigint;
      begin
        if TG_LEVEL = 'STATEMENT' then
          insert into ${LOG} (tbl, truncated) values (TG_TABLE_NAME, true);
          return null;
        end if;
        if TG_OP <> 'INSERT' then
          before_text := OLD::text;
          before_owner := (to_jsonb(OLD) ->> TG_ARGV[0])::bigint;
        end if;
        if TG_OP <> 'DELETE' then
          after_text := NEW::text;
          after_owner := (to_jsonb(NEW) ->> TG_ARGV[0])::bigint;
        end if;
        if TG_OP = 'UPDATE' and before_text = after_text then
          return null;
        end if;
        insert into ${LOG} (tbl, old_owner, new_owner, old_row, new_row) values (TG_TABLE_NAME, before_owner, after_owner, before_text, after_text);
        return null;
      end
    $$`);
    const owners: [string, string][] = [...tables.map((t): [string, string] => [t, 'workspace_id']), ['workspaces', 'id'], ['operators', 'id']];
    for (const [table, column] of owners) {
      await trx.raw(`create trigger ${TRIGGER} after insert or update or delete on "${table}" for each row execute function ${TRIGGER}('${column}')`);
      await trx.raw(`create trigger ${TRIGGER}_truncate after truncate on "${table}" for each statement execute function ${TRIGGER}('${column}')`);
    }
  });
}

export async function unwatchOthers(api: TestApi): Promise<void> {
  const { knex } = api.deps;
  const tables = await tenantTables(api);
  await knex.transaction(async (trx) => {
    for (const table of [...tables, 'workspaces', 'operators']) {
      await trx.raw(`drop trigger if exists ${TRIGGER} on "${table}"`);
      await trx.raw(`drop trigger if exists ${TRIGGER}_truncate on "${table}"`);
    }
    await trx.raw(`drop function if exists ${TRIGGER}()`);
    await trx.raw(`drop table if exists ${LOG}`);
  });
}

/** Where a probe starts: the caller's workspace and the database's snapshot (what had committed). */
export interface OthersSnapshot {
  except: number;
  snapshot: string;
}

/** Starts a probe of a member of workspace `except` (needs `watchOthers`): see `othersChanged`. */
export async function snapshotOthers(api: TestApi, except: number): Promise<OthersSnapshot> {
  const { rows } = await api.deps.knex.raw('select pg_current_snapshot()::text as snapshot');
  return { except, snapshot: (rows as { snapshot: string }[])[0].snapshot };
}

/**
 * The tables where a row that is not the caller's (another workspace's tenant rows, its `workspaces`
 * row, operators who are not members of the caller's workspace) was inserted, changed or deleted, or
 * that were truncated, since `since` was taken: a request of a member of `except` must leave them as they were.
 */
export async function othersChanged(api: TestApi, since: OthersSnapshot): Promise<string[]> {
  const { rows } = await api.deps.knex.raw(
    `select distinct l.tbl from ${LOG} l
      where l.xid >= pg_snapshot_xmin(cast(:snap as pg_snapshot)) and not pg_visible_in_snapshot(l.xid, cast(:snap as pg_snapshot))
        and (l.truncated
          or (l.tbl <> 'operators' and (l.old_owner <> :except or l.new_owner <> :except))
          or (l.tbl = 'operators' and exists (
            select 1 from unnest(array[l.old_owner, l.new_owner]) o(id)
             where o.id is not null and not exists (select 1 from workspace_members m where m.operator_id = o.id and m.workspace_id = :except))))
      order by l.tbl`,
    { snap: since.snapshot, except: since.except },
  );
  return (rows as { tbl: string }[]).map((r) => r.tbl);
}
