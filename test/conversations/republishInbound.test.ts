import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { loadConfig } from '../../api/config';
import { createKnex } from '../../api/db/knex';
import { createLogger } from '../../api/logger';
import type { Publisher } from '../../api/realtime/publisher';
import { receiveInbound } from '../../api/inbound/receiveInbound';
import { republishInbound, startInboundRepublisher } from '../../api/conversations/republishInbound';
import { poolWaiters } from '../../api/db/poolState';
import { testDatabase } from '../helpers/db';
import { makeOperator, makeWorkspace, type TestWorkspace } from '../helpers/factories';
import { inboundMessage, makeChannel, type TestChannel } from '../inbox/factories';

interface Sent {
  topic: string;
  event: string;
  messageId?: number;
}

/** A publisher that records what went out; `before` runs first and may block or throw. */
class RecordingPublisher implements Publisher {
  sent: Sent[] = [];
  before?: (messageId: number | undefined) => Promise<void>;

  async publish<T>(topic: string, event: string, data: T): Promise<boolean> {
    const messageId = (data as { message?: { id: number } }).message?.id;
    await this.before?.(messageId);
    this.sent.push({ topic, event, messageId });
    return true;
  }

  async close(): Promise<void> {}

  newMessageIds(): number[] {
    return this.sent.filter((s) => s.event === 'chat.newMessage' && s.messageId !== undefined).map((s) => s.messageId as number);
  }
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not done in ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

describe('republishInbound: the recovery sweep publishes after commit, never inside a transaction', () => {
  let knex: Knex;
  let url: string;
  let ws: TestWorkspace;
  let channel: TestChannel;
  let publisher: RecordingPublisher;
  const config = loadConfig({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'balcao-republish-')), JWT_SECRET: 'republish-secret-'.padEnd(48, 'x'), MQTT_INTERNAL_PASSWORD: 'internal' });
  const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
  const depsOn = (db: Knex) => ({ knex: db, logger, config, publisher });

  before(async () => {
    ({ knex, url } = await testDatabase());
    ws = await makeWorkspace(knex);
    await makeOperator(knex, config.jwtSecret, ws, 10);
    channel = await makeChannel(knex, ws);
  });
  beforeEach(() => {
    publisher = new RecordingPublisher();
  });

  /**
   * `n` messages stored and processed, left as a kill between the commit and the publish leaves them:
   * processed (a minute ago, so the sweep finds them due), `published_at` null.
   */
  async function interrupted(n: number): Promise<{ eventIds: number[]; messageIds: number[] }> {
    const msgs = Array.from({ length: n }, () => inboundMessage(channel, { identity: { externalId: 'visitante-interrompido' } }));
    const messageIds: number[] = [];
    for (const msg of msgs) messageIds.push((await receiveInbound(depsOn(knex), msg)).messageId);
    const rows: { id: number; externalId: string }[] = await knex('inbound_events')
      .where({ channelId: channel.id })
      .whereIn(
        'external_id',
        msgs.map((m) => m.externalId),
      )
      .update({ publishedAt: null, processedAt: knex.raw("processed_at - interval '1 minute'") })
      .returning(['id', 'external_id']);
    const byExternalId = new Map(rows.map((r) => [r.externalId, Number(r.id)]));
    // In the order of the messages: eventIds[i] is the event of messageIds[i].
    const eventIds = msgs.map((m) => byExternalId.get(m.externalId) as number);
    publisher.sent = [];
    return { eventIds, messageIds };
  }

  const unpublished = async (eventIds: number[]) => (await knex('inbound_events').whereIn('id', eventIds).whereNull('published_at').pluck('id')).map(Number);

  it('holds no lock on the events while publishing: another connection can lock them meanwhile', async () => {
    const { eventIds, messageIds } = await interrupted(3);
    const probes: string[] = [];
    publisher.before = async () => {
      // Another session (another pool connection) takes the rows' locks without waiting.
      try {
        await knex.transaction((trx) => trx('inbound_events').whereIn('id', eventIds).forUpdate().noWait().select('id'));
        probes.push('free');
      } catch (err) {
        probes.push((err as { code?: string }).code ?? String(err));
      }
    };
    await republishInbound(depsOn(knex));
    expect(probes).to.have.length.at.least(3);
    expect(probes.every((p) => p === 'free'), `lock probes during publish: ${probes.join(', ')}`).to.equal(true);
    expect(publisher.newMessageIds()).to.include.members(messageIds);
    expect(await unpublished(eventIds)).to.deep.equal([]);
  });

  it('completes on a database reached through a single connection (a transaction held across the publish would wait on itself)', async () => {
    const { eventIds, messageIds } = await interrupted(3);
    const single = createKnex(url, { pool: { max: 1 } });
    try {
      await withTimeout(republishInbound(depsOn(single)), 6000, 'sweep over one connection');
      expect(publisher.newMessageIds()).to.include.members(messageIds);
      expect(await unpublished(eventIds)).to.deep.equal([]);
    } finally {
      await single.destroy();
    }
  });

  it('leaves an event whose publish failed unpublished, and publishes it on the next sweep', async () => {
    const { eventIds, messageIds } = await interrupted(3);
    const [broken] = messageIds;
    publisher.before = async (messageId) => {
      if (messageId === broken) throw new Error('broker away');
    };
    await republishInbound(depsOn(knex));
    expect(publisher.newMessageIds()).to.include.members(messageIds.slice(1)).and.not.include(broken);
    expect(await unpublished(eventIds)).to.deep.equal([eventIds[0]]);
    // Handed back, not left under its lease: the very next sweep takes it.
    expect((await knex('inbound_events').where({ id: eventIds[0] }).first('publish_claimed_until')).publishClaimedUntil).to.equal(null);

    publisher.before = undefined;
    publisher.sent = [];
    await republishInbound(depsOn(knex));
    expect(publisher.newMessageIds().filter((id) => messageIds.includes(id))).to.deep.equal([broken]);
    expect(await unpublished(eventIds)).to.deep.equal([]);
  });

  it('leaves a live message whose fan-out failed to the sweep instead of marking it published', async () => {
    publisher.before = async () => {
      throw new Error('broker away');
    };
    const msg = inboundMessage(channel, { identity: { externalId: 'visitante-ao-vivo' } });
    const { messageId } = await receiveInbound(depsOn(knex), msg);
    const event = await knex('inbound_events').where({ channelId: channel.id, externalId: msg.externalId }).first('id', 'published_at');
    expect(event.publishedAt).to.equal(null);

    publisher.before = undefined;
    await knex('inbound_events').where({ id: event.id }).update({ processedAt: knex.raw("processed_at - interval '1 minute'") });
    await republishInbound(depsOn(knex));
    expect(publisher.newMessageIds()).to.include(messageId);
    expect(await unpublished([event.id])).to.deep.equal([]);
  });

  it('publishes each event once when two api processes sweep at the same time', async () => {
    const { eventIds, messageIds } = await interrupted(12);
    publisher.before = () => new Promise((r) => setTimeout(r, 15));
    const other = createKnex(url, { pool: { max: 4 } });
    try {
      await Promise.all([republishInbound(depsOn(knex), { limit: 8 }), republishInbound(depsOn(other), { limit: 8 })]);
      await republishInbound(depsOn(knex), { limit: 8 });
    } finally {
      await other.destroy();
    }
    expect(publisher.newMessageIds().filter((id) => messageIds.includes(id)).sort((a, b) => a - b)).to.deep.equal([...messageIds].sort((a, b) => a - b));
    expect(await unpublished(eventIds)).to.deep.equal([]);
  });

  it('skips an event under another sweeper’s live lease and takes it once the lease expired (that sweeper died)', async () => {
    const { eventIds, messageIds } = await interrupted(1);
    await knex('inbound_events').whereIn('id', eventIds).update({ publishClaimedUntil: knex.raw("now() + interval '1 minute'") });
    await republishInbound(depsOn(knex));
    expect(publisher.newMessageIds()).to.not.include(messageIds[0]);
    expect(await unpublished(eventIds)).to.deep.equal(eventIds);

    await knex('inbound_events').whereIn('id', eventIds).update({ publishClaimedUntil: knex.raw("now() - interval '1 second'") });
    await republishInbound(depsOn(knex));
    expect(publisher.newMessageIds()).to.include(messageIds[0]);
    expect(await unpublished(eventIds)).to.deep.equal([]);
  });

  it('hands every claim back when stopped before publishing', async () => {
    const { eventIds, messageIds } = await interrupted(2);
    const stopped = new AbortController();
    stopped.abort();
    await republishInbound(depsOn(knex), { signal: stopped.signal });
    expect(publisher.newMessageIds()).to.not.include.members(messageIds);
    const rows = await knex('inbound_events').whereIn('id', eventIds).select('published_at', 'publish_claimed_until');
    expect(rows.every((r) => r.publishedAt === null && r.publishClaimedUntil === null)).to.equal(true);
  });

  it('the periodic runner drains a backlog larger than one batch, and stops', async () => {
    const { eventIds, messageIds } = await interrupted(7);
    const job = startInboundRepublisher(depsOn(knex), 50, { limit: 3 });
    try {
      for (const until = Date.now() + 10_000; (await unpublished(eventIds)).length && Date.now() < until; ) await new Promise((r) => setTimeout(r, 50));
    } finally {
      await job.stop();
    }
    expect(await unpublished(eventIds)).to.deep.equal([]);
    expect(publisher.newMessageIds().filter((id) => messageIds.includes(id))).to.have.length(messageIds.length);
  });

  it('steps aside while live work waits: one event per batch, the rest handed back for the next tick', async () => {
    const { eventIds, messageIds } = await interrupted(4);
    let waiting = true;
    expect(await republishInbound(depsOn(knex), { yieldTo: () => waiting })).to.equal(1);
    expect(publisher.newMessageIds().filter((id) => messageIds.includes(id))).to.deep.equal([messageIds[0]]);
    const rest = await knex('inbound_events').whereIn('id', eventIds.slice(1)).select('published_at', 'publish_claimed_until');
    expect(rest.every((r) => r.publishedAt === null && r.publishClaimedUntil === null), 'handed back, not leased').to.equal(true);
    waiting = false;
    expect(await republishInbound(depsOn(knex), { yieldTo: () => waiting })).to.be.at.least(3);
    expect(await unpublished(eventIds)).to.deep.equal([]);
  });

  it('poolWaiters counts the queries waiting for a connection of the pool (what the periodic sweep yields to)', async () => {
    const small = createKnex(url, { pool: { max: 1 } });
    try {
      expect(poolWaiters(small)).to.equal(0);
      let release!: () => void;
      const held = small.transaction(async (trx) => {
        await trx.raw('select 1');
        await new Promise<void>((r) => (release = r));
      });
      while (!release) await new Promise((r) => setTimeout(r, 5));
      // A knex query runs once it is awaited (then): these two now wait for the held connection.
      const queued = [small.raw('select 1').then(() => undefined), small.raw('select 2').then(() => undefined)];
      // They reach the pool's queue a few ticks later: wait for that rather than a fixed 20 ms.
      for (const deadline = Date.now() + 10_000; poolWaiters(small) < 2 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 5));
      const waiting = poolWaiters(small);
      release();
      await Promise.all([held, ...queued]);
      expect(waiting).to.equal(2);
      expect(poolWaiters(small)).to.equal(0);
    } finally {
      await small.destroy();
    }
  });
});
