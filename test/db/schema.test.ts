import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Knex } from 'knex';
import type { Model, ModelClass } from 'objection';
import { createKnex } from '../../api/db/knex';
import { MIGRATIONS_DIR, migrateLatest, migrationConfig } from '../../api/db/migrate';
import { startEmbeddedPostgres } from '../../api/db/embeddedPostgres';
import { ApiSecret } from '../../api/models/ApiSecret';
import { AssignmentRule } from '../../api/models/AssignmentRule';
import { Bot } from '../../api/models/Bot';
import { BotSession } from '../../api/models/BotSession';
import { BusinessHours } from '../../api/models/BusinessHours';
import { Call } from '../../api/models/Call';
import { Campaign, CAMPAIGN_STATUSES } from '../../api/models/Campaign';
import { CampaignNumber } from '../../api/models/CampaignNumber';
import { Channel, CHANNEL_TYPES, PLATFORM_IDS } from '../../api/models/Channel';
import { Contract, CONTRACT_STATUSES } from '../../api/models/Contract';
import { Coupon } from '../../api/models/Coupon';
import { Customer } from '../../api/models/Customer';
import { CustomerPlatform } from '../../api/models/CustomerPlatform';
import { CustomerProperty } from '../../api/models/CustomerProperty';
import { Group } from '../../api/models/Group';
import { InboundEvent } from '../../api/models/InboundEvent';
import { Invoice } from '../../api/models/Invoice';
import { InvoiceTransaction } from '../../api/models/InvoiceTransaction';
import { Message, MessageStatus, MessageType, MESSAGE_SENDERS } from '../../api/models/Message';
import { Plugin } from '../../api/models/Plugin';
import { QuickPhrase } from '../../api/models/QuickPhrase';
import { Segment } from '../../api/models/Segment';
import { StoredFile } from '../../api/models/StoredFile';
import { Webhook, WEBHOOK_EVENTS } from '../../api/models/Webhook';
import { WebhookDelivery } from '../../api/models/WebhookDelivery';
import { createScratchDatabase, type ScratchDatabase } from './scratchDatabase';
import { makeConversation, makeMember, seedWorkspace, TENANT_TABLES, WEEK, type SeededWorkspace } from './seedWorkspace';

/** Asserts that the write fails with this SQLSTATE on this constraint. */
async function refused(write: PromiseLike<unknown>, code: string, constraint?: string): Promise<void> {
  try {
    await write;
  } catch (err) {
    const e = err as { code?: string; constraint?: string };
    expect({ code: e.code, constraint: e.constraint }).to.deep.equal({ code, constraint });
    return;
  }
  expect.fail(`the write was accepted; expected ${code} ${constraint ?? ''}`);
}

const CHECK = '23514';
const UNIQUE = '23505';
const FOREIGN = '23503';

async function tenantTables(knex: Knex): Promise<string[]> {
  const { rows } = await knex.raw(`
    SELECT c.relname AS name FROM pg_attribute a
    JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind = 'r' AND a.attname = 'workspace_id' AND a.attnotnull AND NOT a.attisdropped
    ORDER BY 1`);
  return (rows as { name: string }[]).map((r) => r.name);
}

async function countsFor(knex: Knex, workspaceId: number, tables: readonly string[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of tables) {
    const [{ n }] = await knex(t).where('workspace_id', workspaceId).count({ n: '*' });
    out[t] = Number(n);
  }
  return out;
}

/** EXPLAIN of an Objection or knex query with sequential scans disabled: which index can serve it. */
async function plan(knex: Knex, query: { toKnexQuery(): Knex.QueryBuilder }): Promise<string> {
  const { sql, bindings } = query.toKnexQuery().toSQL();
  return knex.transaction(async (trx) => {
    await trx.raw('SET LOCAL enable_seqscan = off');
    const { rows } = await trx.raw(`EXPLAIN ${sql}`, bindings as readonly Knex.Value[]);
    return (rows as Record<string, string>[]).map((r) => Object.values(r)[0]).join('\n');
  });
}

describe('database schema on PostgreSQL', function () {
  this.timeout(120_000);
  let db: ScratchDatabase;
  let knex: Knex;

  before(async () => {
    db = await createScratchDatabase('balcao_schema');
    knex = db.knex;
    await migrateLatest(knex);
  });

  after(async () => {
    await db?.drop();
  });

  it('migrates every file up, back down to an empty database and up again', async () => {
    const files = readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.ts')).sort();
    await knex.migrate.rollback(migrationConfig, true);
    const { rows: tables } = await knex.raw("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1");
    expect((tables as { tablename: string }[]).map((t) => t.tablename)).to.deep.equal(['knex_migrations', 'knex_migrations_lock']);
    const { rows: functions } = await knex.raw(
      "SELECT proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public' AND p.prokind = 'f' AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')",
    );
    expect(functions).to.deep.equal([]);
    expect(await migrateLatest(knex)).to.deep.equal(files);
    expect(await migrateLatest(knex)).to.deep.equal([]);
  });

  it('gives every tenant table an index led by workspace_id and a cascading foreign key to workspaces', async () => {
    const { rows } = await knex.raw(`
      SELECT c.relname AS name,
        EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.oid AND i.indkey[0] = a.attnum) AS indexed,
        EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conrelid = c.oid AND k.contype = 'f'
                AND k.confrelid = 'workspaces'::regclass AND k.conkey = ARRAY[a.attnum] AND k.confdeltype = 'c') AS cascades
      FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind = 'r' AND a.attname = 'workspace_id' AND a.attnotnull AND NOT a.attisdropped`);
    const bad = (rows as { name: string; indexed: boolean; cascades: boolean }[]).filter((r) => !r.indexed || !r.cascades);
    expect(bad).to.deep.equal([]);
    expect((rows as unknown[]).length).to.be.greaterThan(TENANT_TABLES.length);
  });

  describe('constraints', () => {
    let ws: SeededWorkspace;
    before(async () => {
      ws = await seedWorkspace(knex);
    });

    it('refuses values outside SPEC enums: message type 7, channel platform 9, access level 5, campaign status x', async () => {
      const message = { workspaceId: ws.workspaceId, customerPlatformId: ws.conversationId, callId: ws.callId, sender: 'customer', text: 'x' };
      await refused(knex('messages').insert({ ...message, type: 7 }), CHECK, 'messages_type_check');
      await refused(knex('messages').insert({ ...message, status: 5 }), CHECK, 'messages_status_check');
      await refused(knex('messages').insert({ ...message, sender: 'robot' }), CHECK, 'messages_sender_check');
      await refused(knex('channels').insert({ workspaceId: ws.workspaceId, platformId: 9, type: 'widget' }), CHECK, 'channels_platform_id_check');
      await refused(knex('channels').insert({ workspaceId: ws.workspaceId, platformId: 4, type: 'sms' }), CHECK, 'channels_type_check');
      await refused(knex('channels').insert({ workspaceId: ws.workspaceId, platformId: 1, type: 'telegram' }), CHECK, 'channels_type_platform_check');
      const operatorId = await makeMember(knex, ws.workspaceId);
      await refused(knex('workspace_members').where({ workspaceId: ws.workspaceId, operatorId }).update({ accessLevel: 5 }), CHECK, 'workspace_members_access_level_check');
      await refused(knex('campaigns').insert({ workspaceId: ws.workspaceId, name: 'C', status: 'x' }), CHECK, 'campaigns_status_check');
      await refused(knex('contracts').insert({ workspaceId: ws.workspaceId, name: 'C', code: 't', status: 'signed' }), CHECK, 'contracts_status_check');
      await refused(knex('webhooks').insert({ workspaceId: ws.workspaceId, url: 'https://a.b', secret: 's', subscriptions: ['message:sent'] }), CHECK, 'webhooks_subscriptions_check');
      await refused(knex('quick_phrases').insert({ workspaceId: ws.workspaceId, phrase: 'x', tag: 'semBarra' }), CHECK, 'quick_phrases_tag_check');
      await refused(knex('quick_phrases').insert({ workspaceId: ws.workspaceId, phrase: 'x', tag: '/a', privacy: 'team' }), CHECK, 'quick_phrases_privacy_check');
      await refused(knex('bots').insert({ workspaceId: ws.workspaceId, name: 'B', userType: 'vip' }), CHECK, 'bots_user_type_check');
      await refused(knex('segments').insert({ workspaceId: ws.workspaceId, name: 'S', inbox: 'all' }), CHECK, 'segments_inbox_check');
      await refused(
        knex('campaigns').insert({ workspaceId: ws.workspaceId, name: 'C', initialTimeBetweenMessages: 5, finalTimeBetweenMessages: 1 }),
        CHECK,
        'campaigns_timing_check',
      );
    });

    it('refuses business hours without all seven days or with an empty or out-of-day range', async () => {
      const hours = (days: unknown) => knex('business_hours').insert({ workspaceId: ws.workspaceId, name: 'H', days: JSON.stringify(days) });
      await hours(WEEK);
      const { sun: _sun, ...sixDays } = WEEK;
      await refused(hours(sixDays), CHECK, 'business_hours_days_check');
      await refused(hours({ ...WEEK, mon: { active: true, hours: [{ startHourIndex: 8, endHourIndex: 8 }] } }), CHECK, 'business_hours_days_check');
      await refused(hours({ ...WEEK, tue: { active: true, hours: [{ startHourIndex: 90, endHourIndex: 97 }] } }), CHECK, 'business_hours_days_check');
    });

    it('accepts every value the models declare', async () => {
      const w = ws.workspaceId;
      for (const type of CHANNEL_TYPES) await knex('channels').insert({ workspaceId: w, platformId: PLATFORM_IDS[type], type });
      for (const status of CAMPAIGN_STATUSES) await knex('campaigns').insert({ workspaceId: w, name: status, status });
      for (const status of CONTRACT_STATUSES) await knex('contracts').insert({ workspaceId: w, name: status, code: 't', status });
      await knex('webhooks').insert({ workspaceId: w, url: 'https://a.b', secret: 's', subscriptions: [...WEBHOOK_EVENTS] });
      for (const type of Object.values(MessageType)) {
        for (const status of Object.values(MessageStatus)) {
          for (const sender of MESSAGE_SENDERS) {
            await knex('messages').insert({ workspaceId: w, customerPlatformId: ws.conversationId, callId: ws.callId, type, status, sender });
          }
        }
      }
    });

    it('stores an inbound event once: the same (channel, external id) again is refused, ON CONFLICT ignores it', async () => {
      const event = { workspaceId: ws.workspaceId, channelId: ws.channelId, externalId: 'wamid.123', payload: JSON.stringify({ a: 1 }) };
      await knex('inbound_events').insert(event);
      await refused(knex('inbound_events').insert(event), UNIQUE, 'inbound_events_channel_external_unique');
      const inserted = await InboundEvent.query(knex).insert({ ...event, payload: { a: 2 } }).onConflict(['channel_id', 'external_id']).ignore();
      expect(inserted.id).to.equal(undefined);
      const [{ n }] = await knex('inbound_events').where({ channelId: ws.channelId, externalId: 'wamid.123' }).count({ n: '*' });
      expect(Number(n)).to.equal(1);
      const otherChannel = await knex('channels').insert({ workspaceId: ws.workspaceId, platformId: 1, type: 'whatsapp' }).returning('id');
      await knex('inbound_events').insert({ ...event, channelId: otherChannel[0].id });
    });

    it("refuses a message whose call belongs to another conversation of the same workspace", async () => {
      const other = await makeConversation(knex, ws.workspaceId, ws.channelId);
      await refused(
        knex('messages').insert({ workspaceId: ws.workspaceId, customerPlatformId: ws.conversationId, callId: other.callId, sender: 'customer' }),
        FOREIGN,
        'messages_call_id_foreign',
      );
      await refused(knex('customer_platforms').where({ id: ws.conversationId }).update({ currentCallId: other.callId }), FOREIGN, 'customer_platforms_current_call_id_foreign');
    });

    it("refuses references into another workspace's channel, customer, group or member", async () => {
      const theirs = await seedWorkspace(knex);
      const row = { workspaceId: ws.workspaceId, channelId: ws.channelId, customerId: ws.customerId, externalId: `x-${Date.now()}` };
      await refused(knex('customer_platforms').insert({ ...row, channelId: theirs.channelId }), FOREIGN, 'customer_platforms_channel_id_foreign');
      await refused(knex('customer_platforms').insert({ ...row, customerId: theirs.customerId }), FOREIGN, 'customer_platforms_customer_id_foreign');
      await refused(knex('customer_platforms').insert({ ...row, groupId: theirs.groupId }), FOREIGN, 'customer_platforms_group_id_foreign');
      await refused(knex('customer_platforms').insert({ ...row, operatorId: theirs.operatorId }), FOREIGN, 'customer_platforms_operator_id_foreign');
      await refused(
        knex('messages').insert({ workspaceId: ws.workspaceId, customerPlatformId: theirs.conversationId, callId: theirs.callId, sender: 'customer' }),
        FOREIGN,
        'messages_customer_platform_id_foreign',
      );
    });

    it('copies channel_id onto messages from their conversation and keeps (channel, external id) unique', async () => {
      const base = { workspaceId: ws.workspaceId, customerPlatformId: ws.conversationId, callId: ws.callId, sender: 'customer' };
      const [row] = await knex('messages').insert({ ...base, channelId: 999_999, externalId: 'ext-1' }).returning(['channel_id']);
      expect(row.channelId).to.equal(ws.channelId);
      await refused(knex('messages').insert({ ...base, externalId: 'ext-1' }), UNIQUE, 'messages_channel_external_unique');
      await knex('messages').insert([base, base]);
    });

    it('keeps at most one open call per conversation and a finished call always has finished_at', async () => {
      const c = await makeConversation(knex, ws.workspaceId, ws.channelId);
      await refused(knex('calls').insert({ workspaceId: ws.workspaceId, customerPlatformId: c.conversationId }), UNIQUE, 'calls_open_unique');
      await refused(knex('calls').where({ id: c.callId }).update({ isFinished: true }), CHECK, 'calls_finished_check');
      await knex('calls').where({ id: c.callId }).update({ isFinished: true, finishedAt: knex.fn.now() });
      await knex('calls').insert({ workspaceId: ws.workspaceId, customerPlatformId: c.conversationId });
    });
  });

  describe('protocol numbers', () => {
    it('numbers calls 1, 2, 3... per workspace, independently of other workspaces', async () => {
      const a = await seedWorkspace(knex);
      const b = await seedWorkspace(knex);
      const second = await makeConversation(knex, a.workspaceId, a.channelId);
      const third = await makeConversation(knex, a.workspaceId, a.channelId);
      const ids = [a.callId, second.callId, third.callId, b.callId];
      const rows: { id: number; protocol: number }[] = await knex('calls').whereIn('id', ids).select('id', 'protocol');
      expect(ids.map((id) => rows.find((r) => r.id === id)?.protocol)).to.deep.equal([1, 2, 3, 1]);
    });

    it('numbers a call at commit: an open transaction with a new call does not hold up another call of the workspace', async () => {
      const ws = await seedWorkspace(knex);
      const [first, second] = await Promise.all(
        ['late', 'early'].map(async (name) => {
          const [row] = await knex('customer_platforms').insert({ workspaceId: ws.workspaceId, channelId: ws.channelId, customerId: ws.customerId, externalId: name }).returning('id');
          return row.id as number;
        }),
      );
      const open = await knex.transaction();
      try {
        const [late] = await open('calls').insert({ workspaceId: ws.workspaceId, customerPlatformId: first }).returning(['id', 'protocol']);
        expect(late.protocol, 'no number before commit').to.equal(null);
        // Numbered at insert, the counter row would stay locked by `open` and this insert would wait.
        const early = await Promise.race([
          knex('calls').insert({ workspaceId: ws.workspaceId, customerPlatformId: second }).returning('id'),
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the second call waited for the open transaction')), 3000)),
        ]);
        await open.commit();
        const byId = new Map((await knex('calls').whereIn('id', [late.id, early[0].id]).select('id', 'protocol')).map((r: { id: number; protocol: number }) => [r.id, Number(r.protocol)]));
        // The seeded call is 1; the call committed first is 2.
        expect([byId.get(early[0].id), byId.get(late.id)]).to.deep.equal([2, 3]);
      } finally {
        if (!open.isCompleted()) await open.rollback();
      }
    });

    it('numbers the calls of a transaction at once when it asks (SET CONSTRAINTS … IMMEDIATE), as a webhook payload needs', async () => {
      const ws = await seedWorkspace(knex);
      const [cp] = await knex('customer_platforms').insert({ workspaceId: ws.workspaceId, channelId: ws.channelId, customerId: ws.customerId, externalId: 'now' }).returning('id');
      const protocol = await knex.transaction(async (trx) => {
        const [call] = await trx('calls').insert({ workspaceId: ws.workspaceId, customerPlatformId: cp.id }).returning('id');
        await trx.raw('SET CONSTRAINTS calls_protocol_at_commit IMMEDIATE');
        return (await trx('calls').where({ id: call.id }).first('protocol')).protocol;
      });
      expect(Number(protocol)).to.equal(2);
    });

    it('gives concurrent transactions distinct consecutive numbers and a rolled-back call burns none', async () => {
      const ws = await seedWorkspace(knex);
      const conversations = await Promise.all(
        Array.from({ length: 8 }, async (_, i) => {
          const [row] = await knex('customer_platforms')
            .insert({ workspaceId: ws.workspaceId, channelId: ws.channelId, customerId: ws.customerId, externalId: `c-${i}` })
            .returning('id');
          return row.id as number;
        }),
      );
      const rolledBack = knex.transaction(async (trx) => {
        await trx('calls').insert({ workspaceId: ws.workspaceId, customerPlatformId: conversations[0] });
        throw new Error('rollback');
      });
      await rolledBack.catch(() => undefined);
      const callIds = await Promise.all(
        conversations.map((id) =>
          knex.transaction(async (trx) => {
            const [call] = await trx('calls').insert({ workspaceId: ws.workspaceId, customerPlatformId: id }).returning('id');
            await new Promise((r) => setTimeout(r, 20));
            return call.id as number;
          }),
        ),
      );
      // Numbered at commit (migration 20261123160000): read once every transaction committed.
      const protocols: number[] = await knex('calls').whereIn('id', callIds).pluck('protocol');
      expect([...protocols].sort((x, y) => x - y)).to.deep.equal([2, 3, 4, 5, 6, 7, 8, 9]);
    });

    it('moves the counter past a protocol given explicitly (imports)', async () => {
      const ws = await seedWorkspace(knex);
      const c = await knex('customer_platforms')
        .insert({ workspaceId: ws.workspaceId, channelId: ws.channelId, customerId: ws.customerId, externalId: 'import' })
        .returning('id');
      await knex('calls').insert({ workspaceId: ws.workspaceId, customerPlatformId: c[0].id, protocol: 500, isFinished: true, finishedAt: new Date() });
      const next = await makeConversation(knex, ws.workspaceId, ws.channelId);
      expect(await knex('calls').where({ id: next.callId }).first().then((r) => r.protocol)).to.equal(501);
    });
  });

  describe('deletes', () => {
    it('deleting a workspace removes every row it owns and nothing of another workspace', async () => {
      const a = await seedWorkspace(knex);
      const b = await seedWorkspace(knex);
      const tables = [...new Set([...(await tenantTables(knex)), ...TENANT_TABLES])];
      const before = await countsFor(knex, a.workspaceId, tables);
      const empty = TENANT_TABLES.filter((t) => !before[t]);
      expect(empty, 'tables the seed left empty').to.deep.equal([]);
      const beforeB = await countsFor(knex, b.workspaceId, tables);

      await knex('workspaces').where({ id: a.workspaceId }).delete();

      const after = await countsFor(knex, a.workspaceId, tables);
      expect(Object.entries(after).filter(([, n]) => n > 0)).to.deep.equal([]);
      expect(await countsFor(knex, b.workspaceId, tables)).to.deep.equal(beforeB);
    });

    it('removing a member unassigns their conversations, drops their memberships and favourites, keeps their phrases', async () => {
      const ws = await seedWorkspace(knex);
      await knex('calls').where({ id: ws.callId }).update({ operatorId: ws.operatorId });
      await knex('workspace_members').where({ workspaceId: ws.workspaceId, operatorId: ws.operatorId }).delete();
      const conversation = await knex('customer_platforms').where({ id: ws.conversationId }).first();
      expect(conversation.operatorId).to.equal(null);
      expect(conversation.workspaceId).to.equal(ws.workspaceId);
      expect(await knex('group_members').where({ groupId: ws.groupId })).to.deep.equal([]);
      expect(await knex('customer_platform_favorites').where({ customerPlatformId: ws.conversationId })).to.deep.equal([]);
      const phrases = await knex('quick_phrases').where({ workspaceId: ws.workspaceId });
      expect(phrases.map((p) => p.operatorId)).to.deep.equal([null]);
      // The call keeps its agent for the reports.
      expect(await knex('calls').where({ id: ws.callId }).first().then((c) => c.operatorId)).to.equal(ws.operatorId);
    });

    it('deleting a group or a bot clears it on conversations; deleting a call clears current_call_id', async () => {
      const ws = await seedWorkspace(knex);
      await knex('groups').where({ id: ws.groupId }).delete();
      await knex('bot_sessions').where({ botId: ws.botId }).delete();
      await knex('bots').where({ id: ws.botId }).delete();
      let conversation = await knex('customer_platforms').where({ id: ws.conversationId }).first();
      expect([conversation.groupId, conversation.botId, conversation.operatorId]).to.deep.equal([null, null, ws.operatorId]);
      await knex('calls').where({ id: ws.callId }).delete();
      conversation = await knex('customer_platforms').where({ id: ws.conversationId }).first();
      expect(conversation.currentCallId).to.equal(null);
      expect(await knex('messages').where({ callId: ws.callId })).to.deep.equal([]);
    });

    it('deleting a message clears replies to it', async () => {
      const ws = await seedWorkspace(knex);
      await knex('messages').where({ id: ws.messageId }).delete();
      const replies = await knex('messages').where({ customerPlatformId: ws.conversationId }).pluck('reply_to_id');
      expect(replies).to.deep.equal([null]);
    });
  });

  describe('models', () => {
    const models: ModelClass<Model>[] = [
      ApiSecret, AssignmentRule, Bot, BotSession, BusinessHours, Call, Campaign, CampaignNumber, Channel, Contract, Coupon, Customer,
      CustomerPlatform, CustomerProperty, Group, InboundEvent, Invoice, InvoiceTransaction, Message, Plugin, QuickPhrase, Segment,
      StoredFile, Webhook, WebhookDelivery,
    ];

    it('read their tables', async () => {
      for (const model of models) await model.query(knex).limit(1);
    });

    it('fetch a conversation with every relation', async () => {
      const ws = await seedWorkspace(knex);
      const conversation = await CustomerPlatform.query(knex)
        .findById(ws.conversationId)
        .withGraphFetched('[customer.[properties, platforms], channel, assignee, group.members, bot, currentCall.[labels, operator, conversation], calls, messages(newestFirst).[operator, replyTo, call]]');
      expect(conversation?.customer?.properties?.map((p) => p.code)).to.deep.equal(['cpf']);
      expect(conversation?.channel?.type).to.equal('widget');
      expect(conversation?.assignee?.id).to.equal(ws.operatorId);
      expect(conversation?.group?.members?.map((m) => m.id)).to.deep.equal([ws.operatorId]);
      expect(conversation?.currentCall?.labels?.map((l) => l.id)).to.deep.equal([ws.labelId]);
      expect(conversation?.messages?.[0].replyTo?.id).to.equal(ws.messageId);
      expect(conversation?.messages?.[1].content).to.deep.equal([{ insert: 'Olá, preciso de ajuda\n' }]);
      const segment = await Segment.query(knex).where('segments.workspace_id', ws.workspaceId).withGraphFetched('subscribers').first();
      expect(segment?.subscribers?.map((o) => o.id)).to.deep.equal([ws.operatorId]);
      const invoice = await Invoice.query(knex).where('invoices.workspace_id', ws.workspaceId).withGraphFetched('transactions').first();
      expect(invoice?.transactions?.map((t) => t.method)).to.deep.equal(['pix']);
      const campaign = await Campaign.query(knex).where('campaigns.workspace_id', ws.workspaceId).withGraphFetched('numbers').first();
      expect(campaign?.numbers?.map((n) => n.phone)).to.deep.equal(['5511999990000']);
    });

    it('filter favourites, private phrases and private segments by operator', async () => {
      const ws = await seedWorkspace(knex);
      const other = await makeMember(knex, ws.workspaceId);
      const w = ws.workspaceId;
      const starred = (op: number) => CustomerPlatform.query(knex).where('customer_platforms.workspace_id', w).modify('starredBy', op);
      expect([(await starred(ws.operatorId)).map((c) => c.id), await starred(other)]).to.deep.equal([[ws.conversationId], []]);
      await QuickPhrase.query(knex).insert({ workspaceId: w, operatorId: other, phrase: 'Olá', tag: '/ola', privacy: 'public' });
      const phrases = (op: number) => QuickPhrase.query(knex).where('quick_phrases.workspace_id', w).modify('visibleTo', op).orderBy('tag');
      expect((await phrases(ws.operatorId)).map((p) => p.tag)).to.deep.equal(['/bomdia', '/ola']);
      expect((await phrases(other)).map((p) => p.tag)).to.deep.equal(['/ola']);
      const segments = (op: number) => Segment.query(knex).where('segments.workspace_id', w).modify('visibleTo', op);
      expect([(await segments(ws.operatorId)).length, (await segments(other)).length]).to.deep.equal([1, 0]);
      const subscribed = await Segment.query(knex).where('segments.workspace_id', w).modify('subscribedBy', ws.operatorId);
      expect(subscribed.map((s) => s.name)).to.deep.equal(['Abertas']);
    });

    it('write JSON attributes as JSON and text[] as an array', async () => {
      const ws = await seedWorkspace(knex);
      const content = [{ insert: 'Oi ' }, { insert: 'mundo', attributes: { bold: true } }, { insert: '\n' }];
      const saved = await Message.query(knex).insert({
        workspaceId: ws.workspaceId,
        customerPlatformId: ws.conversationId,
        callId: ws.callId,
        content,
        text: 'Oi mundo',
        sender: 'operator',
        type: MessageType.EMAIL,
        extraData: { subject: 'Pedido', messageId: '<a@b>' },
      });
      const read = await Message.query(knex).findById(saved.id);
      expect([read?.content, read?.extraData, read?.channelId]).to.deep.equal([content, { subject: 'Pedido', messageId: '<a@b>' }, ws.channelId]);
      const hook = await Webhook.query(knex).insert({ workspaceId: ws.workspaceId, url: 'https://x.y', secret: 's', subscriptions: ['person:changed'] });
      const found = await Webhook.query(knex).where('webhooks.workspace_id', ws.workspaceId).modify('subscribedTo', 'person:changed');
      expect(found.map((h) => h.id)).to.deep.equal([hook.id]);
      const hours = await BusinessHours.query(knex).insert({ workspaceId: ws.workspaceId, name: 'H', days: WEEK as never });
      expect((await BusinessHours.query(knex).findById(hours.id))?.days).to.deep.equal(WEEK);
      const bots = await Bot.query(knex).where('bots.workspace_id', ws.workspaceId).modify('forChannel', ws.channelId);
      expect(bots.map((b) => b.id)).to.deep.equal([ws.botId]);
    });
  });

  describe('indexes serve the product queries', () => {
    let ws: SeededWorkspace;
    let busyConversation: number;

    before(async () => {
      ws = await seedWorkspace(knex);
      const w = ws.workspaceId;
      // Enough rows for the planner to prefer the indexes the queries were designed for.
      await knex.raw(`INSERT INTO customers (workspace_id, name, phone, email) SELECT ?, 'Cliente ' || g, '55119' || lpad(g::text, 8, '0'), 'c' || g || '@ex.com' FROM generate_series(1, 5000) g`, [w]);
      await knex.raw(
        `INSERT INTO customer_platforms (workspace_id, channel_id, customer_id, external_id, operator_id, group_id, has_new_messages, is_finished, last_message_at)
         SELECT ?, ?, c.id, 'v' || c.id, CASE WHEN c.id % 3 = 0 THEN ?::int END, CASE WHEN c.id % 4 = 0 THEN ?::int END, c.id % 20 = 0, c.id % 2 = 0, now() - (c.id || ' minutes')::interval
         FROM customers c WHERE c.workspace_id = ?`,
        [w, ws.channelId, ws.operatorId, ws.groupId, w],
      );
      await knex.raw('INSERT INTO calls (workspace_id, customer_platform_id) SELECT workspace_id, id FROM customer_platforms WHERE workspace_id = ? AND current_call_id IS NULL', [w]);
      const [busy] = await knex('customer_platforms').where({ workspaceId: w }).whereNot({ id: ws.conversationId }).orderBy('id').limit(1).pluck('id');
      busyConversation = busy;
      await knex.raw(
        `INSERT INTO messages (workspace_id, customer_platform_id, call_id, sender, text, created_at)
         SELECT p.workspace_id, p.id, k.id, 'customer', 'mensagem número ' || g, now() - (g || ' seconds')::interval
         FROM customer_platforms p JOIN calls k ON k.customer_platform_id = p.id, generate_series(1, 4) g WHERE p.workspace_id = ?`,
        [w],
      );
      await knex.raw(
        `INSERT INTO messages (workspace_id, customer_platform_id, call_id, sender, text, created_at)
         SELECT p.workspace_id, p.id, k.id, 'customer', 'mensagem ' || g, now() - (g || ' seconds')::interval
         FROM customer_platforms p JOIN calls k ON k.customer_platform_id = p.id, generate_series(1, 3000) g WHERE p.id = ?`,
        [busy],
      );
      await knex.raw('ANALYZE');
    });

    const conversations = () => CustomerPlatform.query(knex).where('customer_platforms.workspace_id', ws.workspaceId);

    it('inbox pages walk customer_platforms_inbox_idx in order (no sort)', async () => {
      const p = await plan(knex, conversations().modify('open').modify('after', { lastMessageAt: new Date(), id: 1e9 }).modify('inboxOrder').limit(50));
      expect(p).to.include('customer_platforms_inbox_idx').and.not.match(/\bSort\b/);
    });

    it("an agent's and a group's pages walk their own indexes in order", async () => {
      const mine = await plan(knex, conversations().modify('assignedTo', ws.operatorId).modify('open').modify('inboxOrder').limit(50));
      expect(mine).to.include('customer_platforms_assignee_idx').and.not.match(/\bSort\b/);
      const group = await plan(knex, conversations().modify('inGroups', [ws.groupId]).modify('open').modify('inboxOrder').limit(50));
      expect(group).to.include('customer_platforms_group_idx').and.not.match(/\bSort\b/);
    });

    it('unread counters read only the partial unread index', async () => {
      const p = await plan(knex, conversations().modify('unread').modify('assignedTo', ws.operatorId).count({ n: '*' }));
      expect(p).to.include('customer_platforms_unread_idx');
    });

    it('message pages and call history walk their indexes in order', async () => {
      const newest = await knex('messages').where({ customerPlatformId: busyConversation }).orderBy('id', 'desc').first('id');
      const page = await plan(
        knex,
        Message.query(knex).where('messages.customer_platform_id', busyConversation).modify('before', { id: newest.id, conversationId: busyConversation }).modify('newestFirst').limit(30),
      );
      expect(page).to.include('messages_page_idx').and.not.match(/\bSort\b/);
      const history = await plan(knex, Call.query(knex).where('calls.customer_platform_id', busyConversation).modify('history').limit(30));
      expect(history).to.include('calls_customer_platform_id_unique').and.not.match(/\bSort\b/);
    });

    it('message search uses the full-text index and finds the text', async () => {
      const query = () => Message.query(knex).where('messages.workspace_id', ws.workspaceId).modify('search', 'ajuda');
      expect(await plan(knex, query())).to.include('messages_search_idx');
      expect((await query()).map((m) => m.id)).to.deep.equal([ws.messageId]);
    });

    // With a few thousand contacts the planner rightly scans the workspace's rows; from tens of thousands on
    // it picks these indexes. Without the workspace predicate this checks the search's SQL can use them.
    it('contact search can use the trigram indexes (pg_trgm is installed)', async () => {
      const { rows } = await knex.raw("SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'");
      expect(rows, 'pg_trgm installed by the migration').to.have.length(1);
      const p = await plan(knex, Customer.query(knex).modify('search', 'Maria Silva'));
      expect(p).to.include('customers_name_unaccent_trgm_idx');
      const { rows: indexes } = await knex.raw("SELECT indexname FROM pg_indexes WHERE indexdef LIKE '%gin_trgm_ops%' ORDER BY 1");
      expect(indexes.map((i: { indexname: string }) => i.indexname)).to.deep.equal(['customers_email_trgm_idx', 'customers_name_unaccent_trgm_idx', 'customers_phone_trgm_idx']);
    });
  });
});

describe('database schema on the embedded PostgreSQL of npm start', function () {
  this.timeout(180_000);

  it('runs every migration up and down, with pg_trgm and its trigram indexes, and assigns protocols', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'balcao-schema-pg-'));
    chmodSync(dir, 0o755);
    const embedded = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg'), ephemeral: true });
    const knex = createKnex(embedded.url, { pool: { max: 2 } });
    try {
      await migrateLatest(knex);
      const { rows } = await knex.raw("SELECT indexname FROM pg_indexes WHERE indexname LIKE 'customers_%_trgm_idx'");
      const { rows: ext } = await knex.raw("SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'");
      expect(ext.length, 'pg_trgm from the embedded contrib').to.equal(1);
      expect(rows.length).to.equal(3);
      const ws = await seedWorkspace(knex);
      const second = await makeConversation(knex, ws.workspaceId, ws.channelId);
      expect(await knex('calls').whereIn('id', [ws.callId, second.callId]).orderBy('id').pluck('protocol')).to.deep.equal([1, 2]);
      await knex('workspaces').where({ id: ws.workspaceId }).delete();
      expect(await knex('messages').count({ n: '*' }).first().then((r) => Number(r?.n))).to.equal(0);
      await knex.migrate.rollback(migrationConfig, true);
      const { rows: tables } = await knex.raw("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1");
      expect((tables as { tablename: string }[]).map((t) => t.tablename)).to.deep.equal(['knex_migrations', 'knex_migrations_lock']);
    } finally {
      await knex.destroy();
      await embedded.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
