import { mkdtempSync } from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { loadConfig, type Config } from '../../api/config';
import { createLogger } from '../../api/logger';
import { finishCampaign } from '../../activities/campaigns/campaignStatus';
import { INTERRUPTED_REASON, sendCampaignNumbers, type CampaignSendOptions } from '../../activities/campaigns/sendCampaignNumbers';
import { testDatabase } from '../helpers/db';
import { GRAPH_ERRORS, MetaGraphFake } from '../fakes/metaGraph';
import { RecordingPublisher } from '../workflows/subscription/rows';
import { QrLiveSockets, recordSessionQueue } from '../../activities/channels/whatsapp/liveSockets';
import { FakeQrSocket } from '../fakes/baileys';
import { insertCampaign, insertPendingNumbers, makeCampaignWorkspace, makeCloudLine, makeQrLineRow, phones, type CloudLineRow } from './helpers';

/** The fake Cloud API answering each send after `delayMs`, counting the sends it holds at once. */
class SlowGraph extends MetaGraphFake {
  delayMs = 0;
  holding = 0;
  maxHolding = 0;
  /** Runs when a send's request has arrived, before it is answered (what the sender committed by then). */
  onSend?: (to: string) => Promise<void>;
  protected override async handle(req: http.IncomingMessage, res: http.ServerResponse, raw: Buffer): Promise<void> {
    this.maxHolding = Math.max(this.maxHolding, ++this.holding);
    try {
      if (this.onSend && req.url?.endsWith('/messages')) await this.onSend(String((JSON.parse(raw.toString('utf8')) as { to?: unknown }).to));
      if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
      return await super.handle(req, res, raw);
    } finally {
      this.holding--;
    }
  }
}

describe('campaign send activity: one number at a time, never twice (real database, fake Cloud API)', function () {
  this.timeout(60_000);
  let knex: Knex;
  let config: Config;
  let graph: SlowGraph;
  let ws: { id: number };
  let line: CloudLineRow;

  before(async () => {
    ({ knex } = await testDatabase());
    graph = new SlowGraph();
    const url = await graph.start();
    config = loadConfig({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'balcao-campaign-send-')), JWT_SECRET: 'x'.repeat(48), MQTT_INTERNAL_PASSWORD: 'x', META_GRAPH_URL: url });
  });
  after(() => graph?.stop());
  beforeEach(async () => {
    ws = await makeCampaignWorkspace(knex);
    line = await makeCloudLine(knex, config, ws.id);
    graph.allowToken(line.token);
  });

  const send = (campaignId: number, max = 10, options: Partial<CampaignSendOptions> = {}) =>
    sendCampaignNumbers({ knex, config, publisher: new RecordingPublisher(), logger: createLogger('silent') }, { cloudRatePerSecond: 1000, initialRetryMs: 1000, ...options })({ campaignId, max });
  const sentTo = () => graph.sent.filter((s) => s.phoneNumberId === line.phoneNumberId).map((s) => s.body.to);
  const rows = (campaignId: number) => knex('campaign_numbers').where({ campaignId }).orderBy('id').select('id', 'status', 'error', 'external_id', 'idempotency_key');
  const executing = async (list: string[]) => {
    const id = await insertCampaign(knex, { workspaceId: ws.id, channelId: line.id, status: 'executing', template: null, message: 'Oi {{1}}' });
    await insertPendingNumbers(knex, ws.id, id, list);
    return id;
  };

  it('a number a killed attempt left `sending`: sent when only claimed (it never left), failed as interrupted when handed over, sent when its id was recorded; never sent twice', async () => {
    const list = phones(4, 90_000);
    const id = await executing(list);
    const [claimed, handed, recorded] = await rows(id);
    // Claimed and waiting for the line's slot when the worker died: the provider was never called.
    await knex('campaign_numbers').where({ id: claimed.id }).update({ status: 'sending', sendingAt: knex.fn.now(), attempts: 1 });
    // Handed over (committed right before the call), no answer recorded: it may have arrived.
    await knex('campaign_numbers').where({ id: handed.id }).update({ status: 'sending', sendingAt: knex.fn.now(), handedAt: knex.fn.now(), attempts: 1 });
    await knex('campaign_numbers').where({ id: recorded.id }).update({ status: 'sending', sendingAt: knex.fn.now(), handedAt: knex.fn.now(), externalId: 'wamid.recorded', attempts: 1 });
    expect(await send(id)).to.deep.equal({ outcome: 'progress', processed: 4, remaining: false });
    // Several calls are on their way at once: they reach Meta in any order.
    expect([...sentTo()].sort()).to.deep.equal([list[0], list[3]].sort());
    const after = await rows(id);
    expect(after.map((r) => r.status)).to.deep.equal(['sent', 'failed', 'sent', 'sent']);
    expect(after.map((r) => r.error)).to.deep.equal([null, INTERRUPTED_REASON, null, null]);
    expect(after[0].idempotencyKey).to.equal(`campaign:${id}:${after[0].id}`);
    expect((await knex('campaign_numbers').where({ id: claimed.id }).first('attempts')).attempts, 'a claim that never left is not an attempt').to.equal(1);
    expect(await knex('campaigns').where({ id }).first()).to.include({ totalNumbersExecuted: 4, totalNumbersFailed: 1 });
  });

  it('commits each number handed over before its call reaches the provider', async () => {
    const list = phones(2, 91_000);
    const id = await executing(list);
    const seen: { to: string; handed: boolean }[] = [];
    graph.onSend = async (to) => {
      const row = await knex('campaign_numbers').where({ campaignId: id, normalized: to }).first('handed_at');
      seen.push({ to, handed: Boolean(row?.handedAt) });
    };
    try {
      expect(await send(id)).to.deep.equal({ outcome: 'progress', processed: 2, remaining: false });
    } finally {
      graph.onSend = undefined;
    }
    expect([...seen].sort((a, b) => a.to.localeCompare(b.to))).to.deep.equal([...list].sort().map((to) => ({ to, handed: true })));
  });

  it('does not call the provider for a number whose claim another attempt took over while it waited for its slot', async () => {
    const list = phones(2, 92_000);
    const id = await executing(list);
    const [, second] = await rows(id);
    let tookOver = false;
    // While the first send is with Meta, the second number is claimed and waits for its slot (1 per second):
    // another attempt claims it meanwhile (a new `sending_at`), as a retried activity would.
    graph.onSend = async (to) => {
      if (to !== list[0]) return;
      for (let i = 0; i < 50 && !tookOver; i++) {
        const row = await knex('campaign_numbers').where({ id: second.id }).first('status');
        if (row.status === 'sending') {
          await knex('campaign_numbers').where({ id: second.id }).update({ sendingAt: knex.raw("now() + interval '1 second'") });
          tookOver = true;
        } else await new Promise((r) => setTimeout(r, 10));
      }
    };
    try {
      const result = await send(id, 10, { cloudRatePerSecond: 1 });
      expect(result).to.include({ outcome: 'progress', processed: 1 });
    } finally {
      graph.onSend = undefined;
    }
    expect(tookOver, 'the second number was claimed while the first was with Meta').to.equal(true);
    expect(sentTo()).to.deep.equal([list[0]]);
    expect(await knex('campaign_numbers').where({ id: second.id }).first('status', 'handed_at')).to.deep.equal({ status: 'sending', handedAt: null });
  });

  it('sends free text with the placeholders filled on a line without template, and stops at once when the campaign is not executing', async () => {
    const id = await executing(phones(2, 91_000));
    await knex('campaigns').where({ id }).update({ status: 'paused' });
    expect(await send(id)).to.deep.equal({ outcome: 'stopped', status: 'paused' });
    expect(sentTo()).to.deep.equal([]);
    await knex('campaigns').where({ id }).update({ status: 'executing' });
    await send(id, 1);
    expect(graph.sent.at(-1)!.body).to.deep.include({ type: 'text', text: { preview_url: false, body: 'Oi Cliente 0' } });
  });

  it('a transient provider error puts the number back to pending and asks for a retry; a permanent one fails that number only', async () => {
    const id = await executing(phones(2, 92_000));
    graph.nextSendErrors.push(GRAPH_ERRORS.serviceUnavailable);
    // One send at a time, so the second number is not already on its way when the first one's error comes back.
    const retry = await send(id, 10, { cloudConcurrency: 1 });
    expect(retry).to.deep.include({ outcome: 'retry', processed: 0 });
    expect((await rows(id)).map((r) => r.status)).to.deep.equal(['pending', 'pending']);
    graph.nextSendErrors.push(GRAPH_ERRORS.reEngagement);
    expect(await send(id)).to.deep.equal({ outcome: 'progress', processed: 2, remaining: false });
    const after = await rows(id);
    expect(after.map((r) => r.status)).to.deep.equal(['failed', 'sent']);
    expect(after[0].error).to.match(/24 horas/);
  });

  it("a number that answered 'SAIR' after the file was processed (a campaign scheduled or paused meanwhile) is not sent: opted out with its reason, out of the totals", async () => {
    const list = phones(4, 94_000);
    const id = await executing(list);
    await knex('campaign_opt_outs').insert([
      { workspaceId: ws.id, phone: list[1], word: 'SAIR' },
      { workspaceId: ws.id, phone: list[3], word: 'PARAR' },
    ]);
    // Another workspace's opt-out of the same number changes nothing here.
    const other = await makeCampaignWorkspace(knex);
    await knex('campaign_opt_outs').insert({ workspaceId: other.id, phone: list[0], word: 'SAIR' });
    // One number per call, as with waits between messages: a skipped number is not counted as sent.
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await send(id, 1));
    expect(sentTo()).to.deep.equal([list[0], list[2]]);
    expect(results.map((r) => (r.outcome === 'progress' ? r.processed : r.outcome))).to.deep.equal([1, 1, 0, 0]);
    expect(results.at(-1)).to.deep.equal({ outcome: 'progress', processed: 0, remaining: false });
    const after = await rows(id);
    expect(after.map((r) => r.status)).to.deep.equal(['sent', 'opted_out', 'sent', 'opted_out']);
    expect(after[1].error).to.equal('O contato pediu para não receber campanhas (SAIR).');
    expect(await knex('campaigns').where({ id }).first()).to.include({ totalNumbers: 2, totalNumbersExecuted: 2, totalNumbersInvalid: 2, totalNumbersFailed: 0 });
  });

  it("every number opted out after the file was read: nothing is sent and the campaign ends 'Finalizado com erro' saying why (not 'todos os envios falharam')", async () => {
    const list = phones(2, 95_000);
    const id = await executing(list);
    await knex('campaign_opt_outs').insert(list.map((phone) => ({ workspaceId: ws.id, phone, word: 'SAIR' })));
    expect(await send(id)).to.deep.equal({ outcome: 'progress', processed: 0, remaining: false });
    expect(sentTo()).to.deep.equal([]);
    const deps = { knex, config, publisher: new RecordingPublisher(), logger: createLogger('silent') };
    expect(await finishCampaign(deps)({ campaignId: id })).to.equal('finished_fail');
    expect(await knex('campaigns').where({ id }).first()).to.include({
      totalNumbers: 0,
      totalNumbersInvalid: 2,
      error: 'Nenhuma mensagem foi enviada: os contatos pediram para não receber campanhas (SAIR).',
    });
  });

  it('on a Cloud line a few sends wait on Meta at once (never more than cloudConcurrency), each number still sent once and counted once', async () => {
    const list = phones(12, 93_000);
    const id = await executing(list);
    graph.delayMs = 80;
    graph.maxHolding = 0;
    try {
      expect(await send(id, 50, { cloudConcurrency: 3 })).to.deep.equal({ outcome: 'progress', processed: 12, remaining: false });
    } finally {
      graph.delayMs = 0;
    }
    // 12 sends of 80 ms each at 1000/s: one after another would hold one at a time.
    expect(graph.maxHolding).to.be.within(2, 3);
    expect([...sentTo()].sort()).to.deep.equal([...list].sort());
    const after = await rows(id);
    expect(after.every((r) => r.status === 'sent' && r.externalId && r.idempotencyKey === `campaign:${id}:${r.id}`)).to.equal(true);
    expect(await knex('campaigns').where({ id }).first()).to.include({ totalNumbersExecuted: 12, totalNumbersFailed: 0 });
  });

  describe('on a QR line', () => {
    const qrSend = (sockets: QrLiveSockets, campaignId: number, routed?: boolean) =>
      sendCampaignNumbers({ knex, config, publisher: new RecordingPublisher(), logger: createLogger('silent') }, { qrRatePerSecond: 1000 }, sockets)({ campaignId, max: 10, routed });
    const qrCampaign = async (channelId: number, list: string[]) => {
      const id = await insertCampaign(knex, { workspaceId: ws.id, channelId, status: 'executing', template: null, message: 'Oi {{1}}' });
      await insertPendingNumbers(knex, ws.id, id, list);
      return id;
    };

    it("names the socket worker's queue before claiming anything when the socket lives in another process; sends where it lives", async () => {
      const qr = await makeQrLineRow(knex, ws.id);
      const id = await qrCampaign(qr, phones(2, 95_000));
      const holder = new QrLiveSockets('campanha-sessao-a');
      const socket = new FakeQrSocket();
      holder.add(qr, socket).setOpen(true);
      await recordSessionQueue(knex, { workspaceId: ws.id, channelId: qr }, holder.taskQueue);

      expect(await qrSend(new QrLiveSockets('campanha-principal'), id)).to.deep.equal({ outcome: 'route', taskQueue: 'campanha-sessao-a' });
      const untouched = await knex('campaign_numbers').where({ campaignId: id }).orderBy('id').select('status', 'attempts');
      expect(untouched).to.deep.equal([{ status: 'pending', attempts: 0 }, { status: 'pending', attempts: 0 }]);
      expect(socket.sent).to.have.length(0);

      expect(await qrSend(holder, id)).to.deep.equal({ outcome: 'progress', processed: 2, remaining: false });
      expect(socket.sent.map((s) => s.content)).to.deep.equal([{ text: 'Oi Cliente 0' }, { text: 'Oi Cliente 1' }]);
    });

    it("each QR line has its own rate (CAMPAIGN_QR_RATE_PER_SECOND), shared by every campaign on that line: two lines never wait for each other, two campaigns on one line never double it", async () => {
      /** A socket noting when each message reached it. */
      class TimedSocket extends FakeQrSocket {
        readonly at: number[] = [];
        override async sendMessage(...args: Parameters<FakeQrSocket['sendMessage']>) {
          const sent = await super.sendMessage(...args);
          this.at.push(Date.now());
          return sent;
        }
      }
      const [lineA, lineB] = [await makeQrLineRow(knex, ws.id), await makeQrLineRow(knex, ws.id)];
      const holder = new QrLiveSockets('campanha-sessao-taxa');
      const [socketA, socketB] = [new TimedSocket(), new TimedSocket()];
      holder.add(lineA, socketA).setOpen(true);
      holder.add(lineB, socketB).setOpen(true);
      // Two campaigns on line A, one on line B, all at once, through one process's activity; the rate comes
      // from the process config (5 per second, so the test is short), as CAMPAIGN_QR_RATE_PER_SECOND sets it.
      const rated = { ...config, ...loadConfig({ ...process.env, DATA_DIR: config.dataDir, JWT_SECRET: 'x'.repeat(48), MQTT_INTERNAL_PASSWORD: 'x', CAMPAIGN_QR_RATE_PER_SECOND: '5' }) };
      expect(rated.campaignQrRatePerSecond).to.equal(5);
      const activity = sendCampaignNumbers({ knex, config: rated, publisher: new RecordingPublisher(), logger: createLogger('silent') }, {}, holder);
      const [a1, a2, b] = [await qrCampaign(lineA, phones(4, 97_000)), await qrCampaign(lineA, phones(4, 97_100)), await qrCampaign(lineB, phones(4, 97_200))];
      const results = await Promise.all([a1, a2, b].map((campaignId) => activity({ campaignId, max: 10, routed: true })));
      expect(results.map((r) => r.outcome)).to.deep.equal(['progress', 'progress', 'progress']);
      expect(socketA.sent).to.have.length(8);
      expect(socketB.sent).to.have.length(4);
      // Line A: 8 messages of two campaigns at 5/s together: never 6 inside one second, never two back to back
      // (the slot is ~202 ms; the limiter may catch up after a stall down to half a slot, lineRate.ts, and the
      // socket notes each one after its await: 134 ms was seen on a busy run).
      for (let i = 0; i + 5 < socketA.at.length; i++) expect(socketA.at[i + 5] - socketA.at[i], `A ${i}..${i + 5}`).to.be.at.least(1000);
      for (let i = 1; i < socketA.at.length; i++) expect(socketA.at[i] - socketA.at[i - 1], `A ${i}`).to.be.at.least(100);
      expect(socketA.at.at(-1)! - socketA.at[0]).to.be.at.least(7 * 140);
      // Line B at its own 5/s beside line A: its 4 messages in ~3 slots, not queued behind line A's 8.
      for (let i = 1; i < socketB.at.length; i++) expect(socketB.at[i] - socketB.at[i - 1], `B ${i}`).to.be.at.least(100);
      expect(socketB.at.at(-1)! - socketB.at[0]).to.be.below(1000);
      expect(socketB.at[0] - Math.min(socketA.at[0], socketB.at[0])).to.be.below(500);
    });

    it('routed (the socket worker did not answer): sends from here, where there is no socket, so the campaign pauses as disconnected and the number stays pending', async () => {
      const qr = await makeQrLineRow(knex, ws.id);
      const id = await qrCampaign(qr, phones(1, 96_000));
      await recordSessionQueue(knex, { workspaceId: ws.id, channelId: qr }, 'campanha-sessao-morta');
      const result = await qrSend(new QrLiveSockets('campanha-principal'), id, true);
      expect(result).to.have.property('outcome', 'line_down');
      expect(await knex('campaigns').where({ id }).first()).to.include({ status: 'paused', pauseReason: 'A linha de WhatsApp da campanha está desconectada. Reconecte a linha e retome a campanha.' });
      expect((await rows(id)).map((r) => r.status)).to.deep.equal(['pending']);
    });
  });
});
