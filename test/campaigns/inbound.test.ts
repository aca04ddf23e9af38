import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { loadConfig, type Config } from '../../api/config';
import { createLogger } from '../../api/logger';
import { receiveInbound } from '../../api/inbound/receiveInbound';
import { applyCampaignReceipt } from '../../api/campaigns/receipts';
import { isOptOut } from '../../api/campaigns/inbound';
import { testDatabase } from '../helpers/db';
import { RecordingPublisher } from '../workflows/subscription/rows';
import { insertCampaign, makeCampaignWorkspace, makeCloudLine } from './helpers';

describe('campaigns and the inbound side: receipts, replies tagged with the campaign, opt-out words', function () {
  this.timeout(60_000);
  let knex: Knex;
  let config: Config;
  let ws: { id: number };
  let line: { id: number };
  let campaignId: number;

  before(async () => {
    ({ knex } = await testDatabase());
    config = loadConfig({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'balcao-campaign-in-')), JWT_SECRET: 'x'.repeat(48), MQTT_INTERNAL_PASSWORD: 'x' });
  });
  beforeEach(async () => {
    ws = await makeCampaignWorkspace(knex);
    line = await makeCloudLine(knex, config, ws.id);
    campaignId = await insertCampaign(knex, { workspaceId: ws.id, channelId: line.id, status: 'executing' });
    await knex('campaign_numbers').insert({ workspaceId: ws.id, campaignId, phone: '5511912345678', raw: '5511912345678', normalized: '5511912345678', status: 'sent', externalId: 'wamid.camp1', sentAt: new Date() });
  });

  const deps = () => ({ knex, config, publisher: new RecordingPublisher(), logger: createLogger('silent') });
  const inbound = (text: string, waId = '5511912345678') =>
    receiveInbound(deps(), { workspaceId: ws.id, channelId: line.id, externalId: `wamid.in-${Math.random()}`, identity: { externalId: waId, name: 'Ana', phone: `+${waId}` }, content: [{ insert: `${text}\n` }] });
  const number = () => knex('campaign_numbers').where({ campaignId }).first();

  it('opt-out words match the whole message, any case or accents, not inside a sentence', () => {
    for (const w of ['SAIR', 'sair', ' Sair! ', 'PARAR', 'descadastrar', 'Stop']) expect(isOptOut(w), w).to.equal(true);
    for (const w of ['quero sair do plano', 'sairei', '', 'ok']) expect(isOptOut(w), w).to.equal(false);
  });

  it('receipts move the campaign number forward only: delivered, read; a late delivered changes nothing', async () => {
    await applyCampaignReceipt(knex, ws.id, { id: 'wamid.camp1', status: 'delivered' });
    expect(await number()).to.include({ status: 'delivered' });
    await applyCampaignReceipt(knex, ws.id, { id: 'wamid.camp1', status: 'read' });
    await applyCampaignReceipt(knex, ws.id, { id: 'wamid.camp1', status: 'delivered' });
    const n = await number();
    expect(n.status).to.equal('read');
    expect(n.readAt).to.be.instanceOf(Date);
    expect(n.deliveredAt).to.be.instanceOf(Date);
  });

  it('a later failed receipt fails the number with Meta’s reason and counts it', async () => {
    await applyCampaignReceipt(knex, ws.id, { id: 'wamid.camp1', status: 'failed', errors: [{ code: 131026, title: 'Message undeliverable' }] });
    expect(await number()).to.include({ status: 'failed', error: 'O WhatsApp não entregou a mensagem: Message undeliverable (131026)' });
    expect((await knex('campaigns').where({ id: campaignId }).first()).totalNumbersFailed).to.equal(1);
  });

  it('another workspace’s receipt with the same id changes nothing', async () => {
    const other = await makeCampaignWorkspace(knex);
    await applyCampaignReceipt(knex, other.id, { id: 'wamid.camp1', status: 'read' });
    expect((await number()).status).to.equal('sent');
  });

  it('a reply from a number the campaign sent to is a normal conversation message tagged with the campaign', async () => {
    const r = await inbound('Quero a oferta');
    const msg = await knex('messages').where({ id: r.messageId }).first();
    const name = (await knex('campaigns').where({ id: campaignId }).first()).name;
    expect(msg.extraData).to.deep.include({ campaign: { id: campaignId, name } });
    const stranger = await inbound('Oi', '5521987654321');
    expect((await knex('messages').where({ id: stranger.messageId }).first()).extraData).to.not.have.property('campaign');
  });

  it("'SAIR' opts the number out of the workspace's later campaigns", async () => {
    await inbound('Sair');
    expect(await knex('campaign_opt_outs').where({ workspaceId: ws.id }).select('phone', 'word')).to.deep.equal([{ phone: '5511912345678', word: 'SAIR' }]);
    await inbound('SAIR');
    expect(await knex('campaign_opt_outs').where({ workspaceId: ws.id })).to.have.length(1);
  });
});
