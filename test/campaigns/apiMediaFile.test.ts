import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, type TestOperator } from '../helpers/factories';
import { CAMPAIGN_MEDIA_TYPE_REFUSED } from '../../api/campaigns/schema';
import { MetaGraphFake, type GraphTemplateRecord } from '../fakes/metaGraph';
import { makeCampaignWorkspace, makeCloudLine, makeQrLineRow, phones, storeUpload } from './helpers';

const BUSINESS_ACCOUNT_ID = '102290129340398';
const body = (text: string) => ({ type: 'BODY', text, example: { body_text: [['Ana']] } });
const TEMPLATES: GraphTemplateRecord[] = [
  { name: 'oferta', language: 'pt_BR', status: 'APPROVED', category: 'MARKETING', components: [body('Olá {{1}}, temos ofertas!')] },
  { name: 'oferta_imagem', language: 'pt_BR', status: 'APPROVED', category: 'MARKETING', components: [{ type: 'HEADER', format: 'IMAGE', example: { header_handle: ['4::aW'] } }, body('Olá {{1}}, veja!')] },
  { name: 'com_titulo', language: 'pt_BR', status: 'APPROVED', category: 'MARKETING', components: [{ type: 'HEADER', format: 'TEXT', text: 'Novidade' }, body('Olá {{1}}')] },
];

describe('campaigns API: the message’s optional attachment (mediaFile)', function () {
  this.timeout(60_000);
  let api: TestApi;
  let graph: MetaGraphFake;
  let owner: TestOperator;
  let ws: { id: number; name: string };
  let qr: number;
  let cloud: number;
  let numbersKey: string;
  let imageKey: string;

  before(async () => {
    graph = new MetaGraphFake();
    graph.templates.set(BUSINESS_ACCOUNT_ID, TEMPLATES);
    api = await startTestApi({ metaGraphUrl: await graph.start() });
  });
  after(async () => {
    await api?.close();
    await graph?.stop();
  });

  beforeEach(async () => {
    const knex = api.deps.knex;
    ws = await makeCampaignWorkspace(knex, 5);
    owner = await makeOperator(knex, api.config.jwtSecret, ws, 10);
    qr = await makeQrLineRow(knex, ws.id);
    const line = await makeCloudLine(knex, api.config, ws.id);
    graph.allowToken(line.token);
    cloud = line.id;
    numbersKey = await storeUpload(knex, api.config, ws.id, 'lista.csv', Buffer.from(phones(2).join('\n')));
    imageKey = await storeUpload(knex, api.config, ws.id, 'promo.jpg', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]), 'image/jpeg');
  });

  const create = (over: Record<string, unknown>) =>
    api.request('POST', '/api/campaign', { token: owner.token, body: { name: 'Com anexo', workspacePlatformId: qr, message: [{ insert: 'Olá {{1}}!\n' }], file: numbersKey, executionDate: null, ...over } });
  const fieldErrors = (res: { body: { errors: { key: string; descriptions: string[] }[] } }) => Object.fromEntries(res.body.errors.map((e) => [e.key, e.descriptions[0]]));

  it('stores the upload named by key or fileName with its name, type and size from the upload; list and detail answer it with a download link', async () => {
    const res = await create({ mediaFile: imageKey });
    expect(res.status).to.equal(201);
    expect(res.body.data.mediaFile).to.include({ key: imageKey, fileName: 'promo.jpg', mime: 'image/jpeg', size: 7 });
    expect(res.body.data.mediaFile.url).to.match(/\/api\/assets\/download\/.+\?exp=\d+&sig=/);
    const one = await api.request('GET', `/api/campaign/${res.body.data.id}`, { token: owner.token });
    expect(one.body.data.mediaFile).to.include({ key: imageKey, fileName: 'promo.jpg' });
    const download = await fetch(one.body.data.mediaFile.url.replace(api.config.publicUrl, api.url));
    expect(download.status).to.equal(200);

    const byName = await create({ mediaFile: 'promo.jpg' });
    expect(byName.status).to.equal(201);
    expect(byName.body.data.mediaFile.key).to.equal(imageKey);
    const without = await create({});
    expect(without.body.data.mediaFile).to.equal(null);
  });

  it('refuses another workspace’s upload (even by its key) as not found', async () => {
    const other = await makeCampaignWorkspace(api.deps.knex, 1);
    const foreign = await storeUpload(api.deps.knex, api.config, other.id, 'alheio.jpg', Buffer.from([0xff, 0xd8, 0xff, 0xe0]), 'image/jpeg');
    for (const mediaFile of [foreign, 'alheio.jpg']) {
      const res = await create({ mediaFile });
      expect(res.status).to.equal(400);
      expect(fieldErrors(res)).to.deep.equal({ mediaFile: 'Anexo não encontrado: envie o arquivo de novo.' });
    }
    expect(await api.deps.knex('campaigns').where({ workspaceId: ws.id }).first('id')).to.equal(undefined);
  });

  it('refuses a type WhatsApp does not take and an image over Meta’s 5 MB, with every field at once', async () => {
    const knex = api.deps.knex;
    const gif = await storeUpload(knex, api.config, ws.id, 'anim.gif', Buffer.from('GIF89a'), 'image/gif');
    const zip = await storeUpload(knex, api.config, ws.id, 'pacote.zip', Buffer.from('PK\x03\x04'), 'application/zip');
    for (const mediaFile of [gif, zip]) {
      const res = await create({ mediaFile });
      expect(res.status).to.equal(400);
      expect(fieldErrors(res)).to.deep.equal({ mediaFile: CAMPAIGN_MEDIA_TYPE_REFUSED });
    }
    const big = await storeUpload(knex, api.config, ws.id, 'grande.png', Buffer.alloc(5 * 1024 * 1024 + 1, 1), 'image/png');
    const res = await create({ mediaFile: big, executionDate: new Date(Date.now() - 3 * 86_400_000).toISOString() });
    expect(res.status).to.equal(400);
    expect(fieldErrors(res)).to.deep.equal({ mediaFile: 'O anexo (imagem) deve ter no máximo 5 MB para o WhatsApp.', executionDate: 'A data de início não pode ser anterior a hoje.' });
    // Not a name: the schema refuses it before anything is looked up.
    expect(fieldErrors(await create({ mediaFile: '' }))).to.deep.equal({ mediaFile: 'Anexo inválido.' });
  });

  it('on a Cloud line the template decides: a media header of the file’s kind takes it; a template without one, another kind, an unknown template, or a media header without the file are refused in pt-BR', async () => {
    const pdf = await storeUpload(api.deps.knex, api.config, ws.id, 'catalogo.pdf', Buffer.from('%PDF-1.4'), 'application/pdf');
    const ok = await create({ workspacePlatformId: cloud, template: { name: 'oferta_imagem', language: 'pt_BR' }, mediaFile: imageKey });
    expect(ok.status).to.equal(201);
    expect(ok.body.data.mediaFile).to.include({ key: imageKey });

    const noHeader = await create({ workspacePlatformId: cloud, template: { name: 'oferta', language: 'pt_BR' }, mediaFile: imageKey });
    expect(noHeader.status).to.equal(400);
    expect(fieldErrors(noHeader).mediaFile).to.match(/^O modelo escolhido não tem cabeçalho de imagem, vídeo ou documento/);
    const textHeader = await create({ workspacePlatformId: cloud, template: { name: 'com_titulo', language: 'pt_BR' }, mediaFile: imageKey });
    expect(fieldErrors(textHeader).mediaFile).to.match(/não tem cabeçalho/);
    const wrongKind = await create({ workspacePlatformId: cloud, template: { name: 'oferta_imagem', language: 'pt_BR' }, mediaFile: pdf });
    expect(fieldErrors(wrongKind)).to.deep.equal({ mediaFile: 'O cabeçalho do modelo escolhido é de imagem: anexe uma imagem (JPEG ou PNG).' });
    const unknown = await create({ workspacePlatformId: cloud, template: { name: 'nao_existe', language: 'pt_BR' }, mediaFile: imageKey });
    expect(fieldErrors(unknown)).to.deep.include({ template: 'Modelo não encontrado entre os aprovados desta linha.' });
    // Without a file the template is still read: a template campaigns can send goes, an unknown one or one
    // whose media header needs the file is refused at once (before, every number failed at Meta with 132012).
    expect((await create({ workspacePlatformId: cloud, template: { name: 'oferta', language: 'pt_BR' } })).status).to.equal(201);
    const needsFile = await create({ workspacePlatformId: cloud, template: { name: 'oferta_imagem', language: 'pt_BR' } });
    expect(needsFile.status).to.equal(400);
    expect(fieldErrors(needsFile)).to.deep.equal({ template: 'O modelo tem cabeçalho de mídia: anexe o arquivo da campanha.' });
    expect(fieldErrors(await create({ workspacePlatformId: cloud, template: { name: 'nao_existe', language: 'pt_BR' } }))).to.deep.equal({
      template: 'Modelo não encontrado entre os aprovados desta linha.',
    });
  });
});
