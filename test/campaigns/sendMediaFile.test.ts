import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { loadConfig, type Config } from '../../api/config';
import { createLogger } from '../../api/logger';
import { sendCampaignNumbers } from '../../activities/campaigns/sendCampaignNumbers';
import { forgetCampaignMediaUploads } from '../../activities/campaigns/campaignMedia';
import { campaignIdempotencyKey } from '../../api/campaigns/message';
import { QrLiveSockets } from '../../activities/channels/whatsapp/liveSockets';
import { qrMessageId } from '../../api/channels/whatsapp/qr/sender';
import type { StoredFileRef } from '../../api/conversations/content';
import { testDatabase } from '../helpers/db';
import { MetaGraphFake, type GraphTemplateRecord } from '../fakes/metaGraph';
import { RecordingPublisher } from '../workflows/subscription/rows';
import { FakeQrSocket } from '../fakes/baileys';
import { insertCampaign, insertPendingNumbers, makeCampaignWorkspace, makeCloudLine, makeQrLineRow, phones, storeUpload, type CloudLineRow } from './helpers';

const BUSINESS_ACCOUNT_ID = '102290129340398';
const body = (text: string, example: string[]) => ({ type: 'BODY', text, example: { body_text: [example] } });
const TEMPLATES: GraphTemplateRecord[] = [
  { name: 'oferta_imagem', language: 'pt_BR', status: 'APPROVED', category: 'MARKETING', components: [{ type: 'HEADER', format: 'IMAGE', example: { header_handle: ['4::aW'] } }, body('Olá {{1}}, veja a oferta!', ['Ana'])] },
  { name: 'boleto', language: 'pt_BR', status: 'APPROVED', category: 'UTILITY', components: [{ type: 'HEADER', format: 'DOCUMENT', example: { header_handle: ['4::ZG'] } }, body('Seu boleto, {{1}}.', ['Ana'])] },
];

// Small but real headers: what the inbox's upload would have stored for these types.
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 7)]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const OGG = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(200, 3)]);

describe('campaign send activity with an attachment (real database, fake Cloud API, fake QR socket)', function () {
  this.timeout(60_000);
  let knex: Knex;
  let config: Config;
  let graph: MetaGraphFake;
  let ws: { id: number };

  before(async () => {
    ({ knex } = await testDatabase());
    graph = new MetaGraphFake();
    graph.templates.set(BUSINESS_ACCOUNT_ID, TEMPLATES);
    const url = await graph.start();
    config = loadConfig({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'balcao-campaign-media-')), JWT_SECRET: 'x'.repeat(48), MQTT_INTERNAL_PASSWORD: 'x', META_GRAPH_URL: url });
  });
  after(() => graph?.stop());
  beforeEach(async () => {
    forgetCampaignMediaUploads();
    ws = await makeCampaignWorkspace(knex);
  });

  const deps = () => ({ knex, config, publisher: new RecordingPublisher(), logger: createLogger('silent') });
  const upload = async (fileName: string, bytes: Buffer, mime: string): Promise<StoredFileRef> => {
    const key = await storeUpload(knex, config, ws.id, fileName, bytes, mime);
    return { key, fileName, mime, size: bytes.length };
  };
  const campaignWith = async (channelId: number, list: string[], mediaFile: StoredFileRef | null, template: { name: string; language: string } | null, message = 'Oi {{1}}') => {
    const id = await insertCampaign(knex, { workspaceId: ws.id, channelId, status: 'executing', template, message });
    await knex('campaigns').where({ id }).update({ mediaFile: mediaFile ? JSON.stringify(mediaFile) : null });
    await insertPendingNumbers(knex, ws.id, id, list);
    return id;
  };
  const numbers = (campaignId: number) => knex('campaign_numbers').where({ campaignId }).orderBy('id').select('id', 'normalized', 'status', 'error', 'external_id', 'idempotency_key');

  describe('on a Cloud API line: the file is the template’s media header', () => {
    let line: CloudLineRow;
    beforeEach(async () => {
      line = await makeCloudLine(knex, config, ws.id);
      graph.allowToken(line.token);
    });
    const send = (campaignId: number) => sendCampaignNumbers(deps(), { cloudRatePerSecond: 1000 })({ campaignId, max: 10 });
    const sentOnLine = () => graph.sent.filter((s) => s.phoneNumberId === line.phoneNumberId);

    it('uploads the image once and sends it by id as the header parameter of every number, each number once with its key', async () => {
      const image = await upload('promo.jpg', JPEG, 'image/jpeg');
      const list = phones(3, 120_000);
      const id = await campaignWith(line.id, list, image, { name: 'oferta_imagem', language: 'pt_BR' }, 'Olá {{1}}, veja a oferta!');
      expect(await send(id)).to.deep.equal({ outcome: 'progress', processed: 3, remaining: false });

      const uploads = graph.uploads.filter((u) => u.phoneNumberId === line.phoneNumberId);
      expect(uploads.map((u) => u.mime)).to.deep.equal(['image/jpeg']);
      // Several Cloud calls are on their way at once: they reach Meta in any order, each number once.
      const sent = list.map((to) => sentOnLine().find((s) => s.body.to === to)!);
      expect(sentOnLine().map((s) => s.body.to).sort()).to.deep.equal([...list].sort());
      sent.forEach((s, i) => {
        expect(s.body.template).to.deep.equal({
          name: 'oferta_imagem',
          language: { code: 'pt_BR' },
          components: [
            { type: 'header', parameters: [{ type: 'image', image: { id: uploads[0].id } }] },
            { type: 'body', parameters: [{ type: 'text', text: `Cliente ${i}` }] },
          ],
        });
      });
      const rows = await numbers(id);
      expect(rows.map((r) => r.status)).to.deep.equal(['sent', 'sent', 'sent']);
      rows.forEach((r, i) => {
        expect(r.idempotencyKey).to.equal(campaignIdempotencyKey(id, r.id));
        expect(r.externalId).to.equal(sent[i].id);
      });
    });

    it('a document header carries the file name', async () => {
      const pdf = await upload('boleto-novembro.pdf', PDF, 'application/pdf');
      const id = await campaignWith(line.id, phones(1, 121_000), pdf, { name: 'boleto', language: 'pt_BR' }, 'Seu boleto, {{1}}.');
      await send(id);
      const [sent] = sentOnLine();
      const header = (sent.body.template as { components: { type: string; parameters: Record<string, unknown>[] }[] }).components[0];
      expect(header.type).to.equal('header');
      expect(header.parameters[0]).to.have.property('type', 'document');
      expect(header.parameters[0].document).to.include({ filename: 'boleto-novembro.pdf' });
    });

    it('the fake holds Meta’s wire format: a media-header template sent without its file is refused (132012) and the number fails with the reason', async () => {
      const id = await campaignWith(line.id, phones(1, 122_000), null, { name: 'oferta_imagem', language: 'pt_BR' }, 'Olá {{1}}, veja a oferta!');
      expect(await send(id)).to.deep.equal({ outcome: 'progress', processed: 1, remaining: false });
      const [row] = await numbers(id);
      expect(row.status).to.equal('failed');
      expect(row.error).to.match(/132012|Format mismatch/);
      expect(sentOnLine()).to.have.length(0);
    });
  });

  describe('on a QR line: the file goes with the text as the inbox sends it', () => {
    let qr: number;
    let sockets: QrLiveSockets;
    let socket: FakeQrSocket;
    beforeEach(async () => {
      qr = await makeQrLineRow(knex, ws.id);
      sockets = new QrLiveSockets(`campanha-anexo-${qr}`);
      socket = new FakeQrSocket();
      sockets.add(qr, socket).setOpen(true);
    });
    const send = (campaignId: number) => sendCampaignNumbers(deps(), { qrRatePerSecond: 1000 }, sockets)({ campaignId, max: 10, routed: true });

    it('an image with the filled text as its caption, one WhatsApp message per number with the id fixed by campaign:{id}:{numberId}', async () => {
      const image = await upload('promo.jpg', JPEG, 'image/jpeg');
      const list = phones(2, 123_000);
      const id = await campaignWith(qr, list, image, null);
      expect(await send(id)).to.deep.equal({ outcome: 'progress', processed: 2, remaining: false });
      expect(socket.sent).to.have.length(2);
      const rows = await numbers(id);
      socket.sent.forEach((s, i) => {
        expect(s.jid).to.equal(`${list[i]}@s.whatsapp.net`);
        const content = s.content as { image: Buffer; mimetype: string; caption: string };
        expect(Buffer.compare(content.image, JPEG)).to.equal(0);
        expect(content).to.include({ mimetype: 'image/jpeg', caption: `Oi Cliente ${i}` });
        const key = campaignIdempotencyKey(id, rows[i].id);
        expect(s.options?.messageId).to.equal(qrMessageId(key, 0));
        expect(rows[i]).to.include({ status: 'sent', idempotencyKey: key, externalId: qrMessageId(key, 0) });
      });
    });

    it('a document keeps its name and takes the caption', async () => {
      const pdf = await upload('catalogo.pdf', PDF, 'application/pdf');
      const id = await campaignWith(qr, phones(1, 124_000), pdf, null);
      await send(id);
      expect(socket.sent).to.have.length(1);
      expect(socket.sent[0].content).to.include({ mimetype: 'application/pdf', fileName: 'catalogo.pdf', caption: 'Oi Cliente 0' });
    });

    it('an audio goes as a voice note with the text after it (no caption on audio), both parts with ids from the one key', async () => {
      const ogg = await upload('recado.ogg', OGG, 'audio/ogg');
      const id = await campaignWith(qr, phones(1, 125_000), ogg, null);
      await send(id);
      const [row] = await numbers(id);
      const key = campaignIdempotencyKey(id, row.id);
      expect(socket.sent.map((s) => Object.keys(s.content)[0])).to.deep.equal(['audio', 'text']);
      expect(socket.sent[0].content).to.include({ ptt: true, mimetype: 'audio/ogg; codecs=opus' });
      expect(socket.sent[1].content).to.deep.equal({ text: 'Oi Cliente 0' });
      expect(socket.sent.map((s) => s.options?.messageId)).to.deep.equal([qrMessageId(key, 0), qrMessageId(key, 1)]);
      expect(row).to.include({ status: 'sent', externalId: qrMessageId(key, 0) });
    });
  });
});
