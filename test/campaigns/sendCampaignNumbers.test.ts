import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { loadConfig, type Config } from '../../api/config';
import { createLogger } from '../../api/logger';
import { INTERRUPTED_REASON, sendCampaignNumbers } from '../../activities/campaigns/sendCampaignNumbers';
import { testDatabase } from '../helpers/db';
import { GRAPH_ERRORS, MetaGraphFake } from '../fakes/metaGraph';
import { RecordingPublisher } from '../workflows/subscription/rows';
import { QrLiveSockets, recordSessionQueue } from '../../api/channels/whatsapp/qr/liveSockets';
import { FakeQrSocket } from '../channels/whatsapp/qr/fakeSocket';
import { insertCampaign, insertPendingNumbers, makeCampaignWorkspace, makeCloudLine, makeQrLineRow, phones, type CloudLineRow } from './helpers';

describe('campaign send activity: one number at a time, never twice (real database, fake Cloud API)', function () {
  this.timeout(60_000);
  let knex: Knex;
  let config: Config;
  let graph: MetaGraphFake;
  let ws: { id: number };
  let line: CloudLineRow;

  before(async () => {
    ({ knex } = await testDatabase());
    graph = new MetaGraphFake();
    const url = await graph.start();
    config = loadConfig({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'balcao-campaign-send-')), JWT_SECRET: 'x'.repeat(48), MQTT_INTERNAL_PASSWORD: 'x', META_GRAPH_URL: url });
  });
  after(() => graph?.stop());
  beforeEach(async () => {
    ws = await makeCampaignWorkspace(knex);
    line = await makeCloudLine(knex, config, ws.id);
    graph.allowToken(line.token);
  });

  const send = (campaignId: number, max = 10) =>
    sendCampaignNumbers({ knex, config, publisher: new RecordingPublisher(), logger: createLogger('silent') }, { cloudRatePerSecond: 1000, initialRetryMs: 1000 })({ campaignId, max });
  const sentTo = () => graph.sent.filter((s) => s.phoneNumberId === line.phoneNumberId).map((s) => s.body.to);
  const rows = (campaignId: number) => knex('campaign_numbers').where({ campaignId }).orderBy('id').select('id', 'status', 'error', 'external_id', 'idempotency_key');
  const executing = async (list: string[]) => {
    const id = await insertCampaign(knex, { workspaceId: ws.id, channelId: line.id, status: 'executing', template: null, message: 'Oi {{1}}' });
    await insertPendingNumbers(knex, ws.id, id, list);
    return id;
  };

  it('a number left `sending` by a killed attempt is never sent again: failed as interrupted, or sent when its id was recorded', async () => {
    const list = phones(3, 90_000);
    const id = await executing(list);
    const [a, b] = await rows(id);
    await knex('campaign_numbers').where({ id: a.id }).update({ status: 'sending' });
    await knex('campaign_numbers').where({ id: b.id }).update({ status: 'sending', externalId: 'wamid.recorded' });
    expect(await send(id)).to.deep.equal({ outcome: 'progress', processed: 3, remaining: false });
    expect(sentTo()).to.deep.equal([list[2]]);
    const after = await rows(id);
    expect(after.map((r) => r.status)).to.deep.equal(['failed', 'sent', 'sent']);
    expect(after[0].error).to.equal(INTERRUPTED_REASON);
    expect(after[2].idempotencyKey).to.equal(`campaign:${id}:${after[2].id}`);
    expect(await knex('campaigns').where({ id }).first()).to.include({ totalNumbersExecuted: 3, totalNumbersFailed: 1 });
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
    const retry = await send(id);
    expect(retry).to.deep.include({ outcome: 'retry', processed: 0 });
    expect((await rows(id)).map((r) => r.status)).to.deep.equal(['pending', 'pending']);
    graph.nextSendErrors.push(GRAPH_ERRORS.reEngagement);
    expect(await send(id)).to.deep.equal({ outcome: 'progress', processed: 2, remaining: false });
    const after = await rows(id);
    expect(after.map((r) => r.status)).to.deep.equal(['failed', 'sent']);
    expect(after[0].error).to.match(/24 horas/);
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
