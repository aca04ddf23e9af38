import { expect } from 'chai';
import type { Knex } from 'knex';
import type { WeekSchedule } from '../../api/models/BusinessHours';
import { WEEK_DAYS } from '../../api/businessHours/week';
import { createLogger } from '../../api/logger';
import { loadConfig } from '../../api/config';
import { isRegistered, pickBot, selectBot } from '../../api/bots/selectBot';
import type { BotRecord } from '../../api/bots/queries';
import { receiveInbound } from '../../api/inbound/receiveInbound';
import { testDatabase } from '../helpers/db';
import { makeWorkspace } from '../helpers/factories';
import { inboundMessage, makeChannel } from '../inbox/factories';
import { RecordingPublisher } from '../workflows/subscription/rows';
import { makeBot } from './support';

/** Closed every day except the given ranges ([start, end) in 15-minute slots). */
function schedule(open: Partial<Record<(typeof WEEK_DAYS)[number], [number, number][]>>): WeekSchedule {
  return Object.fromEntries(
    WEEK_DAYS.map((d) => [d, { active: Boolean(open[d]?.length), hours: (open[d] ?? []).map(([startHourIndex, endHourIndex]) => ({ startHourIndex, endHourIndex })) }]),
  ) as WeekSchedule;
}

const bot = (over: Partial<BotRecord>): BotRecord => ({
  id: 1,
  workspaceId: 1,
  name: 'Bot',
  isActive: true,
  priority: 0,
  userType: 'all',
  channels: [10],
  businessHours: [],
  expire: { enabled: false, hours: 0, minutes: 1, message: '' },
  paths: [],
  layout: {},
  updatedAt: new Date(0),
  ...over,
});

// Monday 23:30 and Tuesday 01:00 / 03:00 in São Paulo (UTC-3).
const MON_2330 = new Date('2026-11-24T02:30:00Z');
const TUE_0100 = new Date('2026-11-24T04:00:00Z');
const TUE_0300 = new Date('2026-11-24T06:00:00Z');
const TZ = 'America/Sao_Paulo';

describe('bot selection rules (pure)', () => {
  const facts = (over: Partial<Parameters<typeof pickBot>[1]> = {}) => ({ channelId: 10, now: MON_2330, timeZone: TZ, schedules: new Map(), registered: false, ...over });

  it('the highest priority wins; equal priorities go to the lowest id', () => {
    expect(pickBot([bot({ id: 1, priority: 1 }), bot({ id: 2, priority: 5 }), bot({ id: 3, priority: 5 })], facts())?.id).to.equal(2);
    expect(pickBot([bot({ id: 7, priority: -1 }), bot({ id: 4, priority: -1 })], facts())?.id).to.equal(4);
  });

  it('only active bots that list the channel', () => {
    expect(pickBot([bot({ id: 1, priority: 9, isActive: false }), bot({ id: 2, priority: 9, channels: [11] }), bot({ id: 3 })], facts())?.id).to.equal(3);
    expect(pickBot([bot({ channels: [] })], facts())).to.equal(undefined);
  });

  it('business hours in the workspace time zone, including a schedule that crosses midnight (Monday 22:00 → Tuesday 02:00)', () => {
    const night = schedule({ mon: [[88, 96]], tue: [[0, 8]] });
    const b = bot({ businessHours: [5] });
    const schedules = new Map([[5, night]]);
    expect(pickBot([b], facts({ now: MON_2330, schedules }))).to.equal(b);
    expect(pickBot([b], facts({ now: TUE_0100, schedules }))).to.equal(b);
    expect(pickBot([b], facts({ now: TUE_0300, schedules }))).to.equal(undefined);
    // The zone decides: Monday 23:00 UTC is inside in UTC, but 20:00 (closed) in São Paulo.
    const mon2300utc = new Date('2026-11-23T23:00:00Z');
    expect(pickBot([b], facts({ now: mon2300utc, schedules, timeZone: 'UTC' }))).to.equal(b);
    expect(pickBot([b], facts({ now: mon2300utc, schedules }))).to.equal(undefined);
  });

  it('any one of several schedules opens the bot; a deleted schedule is closed; outside hours a lower-priority bot runs', () => {
    const closed = bot({ id: 1, priority: 9, businessHours: [5, 6] });
    const always = bot({ id: 2, priority: 0 });
    expect(pickBot([closed, always], facts({ schedules: new Map([[6, schedule({ mon: [[92, 96]] })]]) }))?.id).to.equal(1);
    expect(pickBot([closed, always], facts({ schedules: new Map([[5, schedule({ tue: [[0, 96]] })]]) }))?.id).to.equal(2);
    expect(pickBot([closed, always], facts({ schedules: new Map() }))?.id).to.equal(2);
  });

  it('user type: registered, unregistered or all', () => {
    const reg = bot({ id: 1, priority: 2, userType: 'registered' });
    const unreg = bot({ id: 2, priority: 1, userType: 'unregistered' });
    const all = bot({ id: 3, priority: 0, userType: 'all' });
    expect(pickBot([reg, unreg, all], facts({ registered: true }))?.id).to.equal(1);
    expect(pickBot([reg, unreg, all], facts({ registered: false }))?.id).to.equal(2);
    expect(pickBot([reg, all], facts({ registered: false }))?.id).to.equal(3);
  });

  it('registered means an e-mail, or a name typed into a bot input', () => {
    expect(isRegistered({ email: 'a@b.com', nameGivenAt: null })).to.equal(true);
    expect(isRegistered({ email: null, nameGivenAt: new Date() })).to.equal(true);
    expect(isRegistered({ email: '  ', nameGivenAt: null })).to.equal(false);
    expect(isRegistered({ email: null, nameGivenAt: null })).to.equal(false);
  });
});

describe('bot selection on a new call (database)', () => {
  let knex: Knex;
  before(async () => {
    ({ knex } = await testDatabase());
  });

  it('reads active bots of the channel, their schedules, the workspace time zone and the contact', async () => {
    const ws = await makeWorkspace(knex);
    await knex('workspaces').where({ id: ws.id }).update({ timeZone: 'UTC' });
    const channel = await makeChannel(knex, ws);
    const [hours] = await knex('business_hours').insert({ workspaceId: ws.id, name: 'Noite', days: JSON.stringify(schedule({ mon: [[88, 96]], tue: [[0, 8]] })) }).returning('id');
    const night = await makeBot(knex, ws, { name: 'Noturno', priority: 10, channels: [channel.id], businessHours: [hours.id], paths: [] });
    const registered = await makeBot(knex, ws, { name: 'Clientes', priority: 5, channels: [channel.id], userType: 'registered', paths: [] });
    const fallback = await makeBot(knex, ws, { name: 'Geral', priority: 0, channels: [channel.id], paths: [] });
    await makeBot(knex, ws, { name: 'Inativo', priority: 99, isActive: false, channels: [channel.id], paths: [] });
    const [anon] = await knex('customers').insert({ workspaceId: ws.id, name: 'Visitante ABCD' }).returning('id');
    const [known] = await knex('customers').insert({ workspaceId: ws.id, name: 'Ana', email: 'ana@exemplo.com' }).returning('id');

    const pick = async (customerId: number, now: Date) => (await selectBot(knex, { workspaceId: ws.id, channelId: channel.id, customerId, now }))?.id;
    // Monday 23:30 UTC: inside the night schedule (time zone UTC here).
    expect(await pick(anon.id, new Date('2026-11-23T23:30:00Z'))).to.equal(night.id);
    // Tuesday 01:00 UTC: still inside (the schedule crosses midnight).
    expect(await pick(anon.id, new Date('2026-11-24T01:00:00Z'))).to.equal(night.id);
    // Tuesday 03:00: closed; the registered contact gets their bot, the visitor the general one.
    expect(await pick(known.id, new Date('2026-11-24T03:00:00Z'))).to.equal(registered.id);
    expect(await pick(anon.id, new Date('2026-11-24T03:00:00Z'))).to.equal(fallback.id);
    expect(await selectBot(knex, { workspaceId: ws.id, channelId: channel.id + 100000, customerId: anon.id })).to.equal(undefined);
  });

  it('a bot picked for a new call opens a session, sets bot_id and keeps the call unassigned (no Temporal: it fails and auto-assignment runs)', async () => {
    const ws = await makeWorkspace(knex);
    const channel = await makeChannel(knex, ws);
    const b = await makeBot(knex, ws, { name: 'Sem Temporal', channels: [channel.id], paths: [] });
    const deps = { knex, logger: createLogger('silent'), publisher: new RecordingPublisher(), config: loadConfig({ DATA_DIR: '/tmp/balcao-bot-select', JWT_SECRET: 'x'.repeat(48), MQTT_INTERNAL_PASSWORD: 'x' }) };
    const r = await receiveInbound(deps, inboundMessage(channel));
    const session = await knex('bot_sessions').where({ customerPlatformId: r.conversationId }).first('bot_id', 'call_id', 'status', 'workflow_id', 'bot_version');
    expect(session).to.deep.include({ botId: b.id, callId: r.callId, status: 'failed', workflowId: `bot-session:${r.conversationId}`, botVersion: b.updatedAt.toISOString() });
    expect((await knex('customer_platforms').where({ id: r.conversationId }).first('bot_id')).botId).to.equal(null);
  });
});
