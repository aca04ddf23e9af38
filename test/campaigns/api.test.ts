import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import ExcelJS from 'exceljs';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, type TestOperator } from '../helpers/factories';
import { NO_CAMPAIGNS_IN_PLAN, PLAN_EXPIRED } from '../../api/billing/limits';
import { MetaGraphFake } from '../fakes/metaGraph';
import { insertCampaign, insertPendingNumbers, makeCampaignWorkspace, makeCloudLine, makeQrLineRow, phones, storeUpload } from './helpers';

describe('campaigns API (SPEC §7): create, list, status changes, plan limit, report', function () {
  this.timeout(60_000);
  let api: TestApi;
  let owner: TestOperator;
  let ws: { id: number; name: string };
  let cloud: number;
  let qr: number;
  let fileKey: string;
  // A Cloud campaign's template is read from Meta at creation (api/campaigns/createCampaign.ts).
  const graph = new MetaGraphFake();
  graph.templates.set('102290129340398', [
    { name: 'oferta', language: 'pt_BR', status: 'APPROVED', category: 'MARKETING', components: [{ type: 'BODY', text: 'Olá {{1}}!', example: { body_text: [['Ana']] } }] },
  ]);

  before(async () => {
    api = await startTestApi({ metaGraphUrl: await graph.start() });
  });
  after(async () => {
    await api?.close();
    await graph.stop();
  });

  beforeEach(async () => {
    const knex = api.deps.knex;
    ws = await makeCampaignWorkspace(knex, 1);
    owner = await makeOperator(knex, api.config.jwtSecret, ws, 10);
    const line = await makeCloudLine(knex, api.config, ws.id);
    graph.allowToken(line.token);
    cloud = line.id;
    qr = await makeQrLineRow(knex, ws.id);
    fileKey = await storeUpload(knex, api.config, ws.id, 'lista.csv', Buffer.from(phones(3).join('\n')));
  });

  const body = (over: Record<string, unknown> = {}) => ({
    name: 'Black Friday',
    workspacePlatformId: qr,
    message: [{ insert: 'Olá {{1}}!\n' }],
    file: fileKey,
    executionDate: null,
    ...over,
  });
  const create = (over: Record<string, unknown> = {}, token = owner.token) => api.request('POST', '/api/campaign', { token, body: body(over) });

  it('creates a campaign waiting for its file, with SPEC §9 defaults and the maximum wait raised to the minimum', async () => {
    const res = await create({ initialTimeBetweenMessages: 8, finalTimeBetweenMessages: 3 });
    expect(res.status).to.equal(201);
    expect(res.body.data).to.include({ name: 'Black Friday', workspacePlatformId: qr, status: 'waiting_file_processing', chunks: 100, timeBetweenChunks: 1800, initialTimeBetweenMessages: 8, finalTimeBetweenMessages: 8, totalNumbers: 0, totalNumbersExecuted: 0, completion: 0 });
    expect(res.body.data.file).to.equal(fileKey);
    const list = await api.request('GET', '/api/campaign', { token: owner.token });
    expect(list.body).to.include({ matchCount: 1, totalCount: 1 });
    const one = await api.request('GET', `/api/campaign/${res.body.data.id}`, { token: owner.token });
    expect(one.body.data.id).to.equal(res.body.data.id);
  });

  it('accepts the uploaded fileName as well as the key', async () => {
    expect((await create({ file: 'lista.csv' })).body.data.file).to.equal(fileKey);
  });

  it('reports every failing field at once in pt-BR', async () => {
    const res = await create({ name: ' ', workspacePlatformId: 'x', message: [], file: '', chunks: 0, timeBetweenChunks: -1 });
    expect(res.status).to.equal(400);
    const keys = res.body.errors.map((e: { key: string }) => e.key).sort();
    expect(keys).to.deep.equal(['chunks', 'file', 'message', 'name', 'timeBetweenChunks', 'workspacePlatformId']);
    const byKey = Object.fromEntries(res.body.errors.map((e: { key: string; descriptions: string[] }) => [e.key, e.descriptions[0]]));
    expect(byKey).to.include({ name: 'O nome da campanha é obrigatório.', chunks: 'O tamanho do lote deve ser no mínimo 1.', message: 'Escreva a mensagem da campanha.' });
  });

  it('refuses what the workspace does not have: another workspace’s line, an unknown file, a file of another type, a past start day, a Cloud line without template; takes an .xls (SPEC §5)', async () => {
    const other = await makeCampaignWorkspace(api.deps.knex, 1);
    const otherLine = await makeQrLineRow(api.deps.knex, other.id);
    const pdf = await storeUpload(api.deps.knex, api.config, ws.id, 'lista.pdf', Buffer.from('%PDF-1.4'), 'application/pdf');
    const xls = await storeUpload(api.deps.knex, api.config, ws.id, 'numeros.xls', readFileSync(path.join(__dirname, 'fixtures', 'numeros.xls')), 'application/vnd.ms-excel');
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ workspacePlatformId: otherLine }, 'workspacePlatformId', /^Escolha uma linha de WhatsApp/],
      [{ file: 'nao-existe.csv' }, 'file', /^Arquivo não encontrado/],
      [{ file: pdf }, 'file', /^Formato de arquivo não suportado: use \.csv, \.xls, \.xlsx, \.txt ou \.xml\.$/],
      [{ executionDate: new Date(Date.now() - 3 * 86_400_000).toISOString() }, 'executionDate', /^A data de início não pode ser anterior a hoje\.$/],
      [{ workspacePlatformId: cloud }, 'template', /modelo aprovado/],
    ];
    for (const [over, key, text] of cases) {
      const res = await create(over);
      expect(res.status, key).to.equal(400);
      expect(res.body.errors[0].key).to.equal(key);
      expect(res.body.errors[0].descriptions[0]).to.match(text);
    }
    const ok = await create({ workspacePlatformId: cloud, template: { name: 'oferta', language: 'pt_BR' } });
    expect(ok.status).to.equal(201);
    expect(ok.body.data.template).to.deep.equal({ name: 'oferta', language: 'pt_BR' });
    await api.deps.knex('subscriptions').where({ workspaceId: ws.id }).update({ campaignUnits: 2 });
    const fromXls = await create({ file: xls });
    expect(fromXls.status).to.equal(201);
    expect(fromXls.body.data.file).to.equal(xls);
  });

  it('is level 6+: an agent gets 403; another workspace’s campaign is a 404', async () => {
    const agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
    expect((await create({}, agent.token)).status).to.equal(403);
    expect((await api.request('GET', '/api/campaign', { token: agent.token })).status).to.equal(403);
    const other = await makeCampaignWorkspace(api.deps.knex, 1);
    const otherOwner = await makeOperator(api.deps.knex, api.config.jwtSecret, other, 10);
    const mine = (await create()).body.data.id;
    expect((await api.request('GET', `/api/campaign/${mine}`, { token: otherOwner.token })).status).to.equal(404);
    expect((await api.request('PUT', `/api/campaign/${mine}`, { token: otherOwner.token, body: { status: 'canceled' } })).status).to.equal(404);
    expect((await api.request('GET', `/api/report/campaign/${mine}`, { token: otherOwner.token })).status).to.equal(404);
  });

  it('plan limit: a trial (0 campaigns) is refused; Enterprise runs one at a time, a paused one frees the slot, resuming needs it back', async () => {
    const trial = await makeCampaignWorkspace(api.deps.knex, 0, 'trial');
    const trialOwner = await makeOperator(api.deps.knex, api.config.jwtSecret, trial, 10);
    const trialLine = await makeQrLineRow(api.deps.knex, trial.id);
    const trialFile = await storeUpload(api.deps.knex, api.config, trial.id, 'l.csv', Buffer.from('5511912345678'));
    const refused = await api.request('POST', '/api/campaign', { token: trialOwner.token, body: body({ workspacePlatformId: trialLine, file: trialFile }) });
    expect(refused.status).to.equal(403);
    expect(refused.body.errors[0].descriptions).to.deep.equal([NO_CAMPAIGNS_IN_PLAN]);

    const first = (await create()).body.data.id;
    const second = await create();
    expect(second.status).to.equal(409);
    expect(second.body.errors[0].descriptions[0]).to.match(/^Seu plano permite 1 campanha em execução ao mesmo tempo/);
    await api.deps.knex('campaigns').where({ id: first }).update({ status: 'executing' });
    expect((await api.request('POST', '/api/campaign', { token: owner.token, body: { id: first, status: 'paused' } })).body.data.status).to.equal('paused');
    const third = await create();
    expect(third.status).to.equal(201);
    const resume = await api.request('POST', '/api/campaign', { token: owner.token, body: { id: first, status: 'waiting_processing' } });
    expect(resume.status).to.equal(409);
  });

  it('plan limit: an Enterprise plan that expired is refused saying so, not as a plan without campaigns', async () => {
    await api.deps.knex('subscriptions').where({ workspaceId: ws.id }).update({ expiresAt: new Date(Date.now() - 86_400_000) });
    const refused = await create();
    expect(refused.status).to.equal(402);
    expect(refused.body.errors[0].descriptions).to.deep.equal([PLAN_EXPIRED]);
    expect(PLAN_EXPIRED).to.match(/^Seu plano expirou/);
  });

  it('GET /api/campaign/plan tells before the wizard whether the plan has campaigns: a trial has none (the creation refusal text), an expired plan says so, Enterprise counts what runs; level 6+', async () => {
    const trial = await makeCampaignWorkspace(api.deps.knex, 0, 'trial');
    const trialOwner = await makeOperator(api.deps.knex, api.config.jwtSecret, trial, 10);
    const trialPlan = await api.request('GET', '/api/campaign/plan', { token: trialOwner.token });
    expect(trialPlan.status).to.equal(200);
    expect(trialPlan.body).to.deep.equal({ data: { campaignUnits: 0, running: 0, refusal: NO_CAMPAIGNS_IN_PLAN } });

    const first = (await create()).body.data.id;
    expect((await api.request('GET', '/api/campaign/plan', { token: owner.token })).body.data).to.deep.equal({ campaignUnits: 1, running: 1, refusal: null });
    await api.deps.knex('campaigns').where({ id: first }).update({ status: 'paused' });
    expect((await api.request('GET', '/api/campaign/plan', { token: owner.token })).body.data).to.deep.equal({ campaignUnits: 1, running: 0, refusal: null });
    await api.deps.knex('subscriptions').where({ workspaceId: ws.id }).update({ expiresAt: new Date(Date.now() - 86_400_000) });
    expect((await api.request('GET', '/api/campaign/plan', { token: owner.token })).body.data).to.deep.equal({ campaignUnits: 0, running: 0, refusal: PLAN_EXPIRED });

    const agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
    expect((await api.request('GET', '/api/campaign/plan', { token: agent.token })).status).to.equal(403);
  });

  it('status changes follow SPEC §4 only; the name is the only other editable field', async () => {
    const id = (await create()).body.data.id;
    const pauseEarly = await api.request('PUT', `/api/campaign/${id}`, { token: owner.token, body: { status: 'paused' } });
    expect(pauseEarly.status).to.equal(400);
    expect(pauseEarly.body.errors[0]).to.include({ key: 'status' });
    expect(pauseEarly.body.errors[0].descriptions[0]).to.equal("Não é possível passar a campanha de 'Aguardando processamento...' para 'Pausado'.");
    expect((await api.request('PUT', `/api/campaign/${id}`, { token: owner.token, body: { status: 'executing' } })).status).to.equal(400);
    expect((await api.request('PUT', `/api/campaign/${id}`, { token: owner.token, body: { chunks: 5 } })).status).to.equal(400);
    const renamed = await api.request('POST', '/api/campaign', { token: owner.token, body: { id, name: 'Natal' } });
    expect(renamed.body.data).to.include({ id, name: 'Natal' });
    const canceled = await api.request('PUT', `/api/campaign/${id}`, { token: owner.token, body: { status: 'canceled' } });
    expect(canceled.body.data.status).to.equal('canceled');
    expect((await api.request('PUT', `/api/campaign/${id}`, { token: owner.token, body: { status: 'waiting_processing' } })).status).to.equal(400);
  });

  it('lists the numbers of the detail view with counts by state', async () => {
    const id = await insertCampaign(api.deps.knex, { workspaceId: ws.id, channelId: qr, status: 'executing' });
    await insertPendingNumbers(api.deps.knex, ws.id, id, phones(4));
    const first = await api.deps.knex('campaign_numbers').where({ campaignId: id }).orderBy('id').first('id');
    await api.deps.knex('campaign_numbers').where({ id: first.id }).update({ status: 'sent' });
    const res = await api.request('GET', `/api/campaign/${id}/numbers?status=pending&limit=2`, { token: owner.token });
    expect(res.body).to.deep.include({ matchCount: 3, totalCount: 4, counts: { pending: 3, sent: 1 } });
    expect(res.body.data).to.have.length(2);
  });

  describe('report (.xlsx)', () => {
    async function reportCampaign(): Promise<number> {
      const id = await insertCampaign(api.deps.knex, { workspaceId: ws.id, channelId: qr, status: 'finished_success' });
      const at = new Date('2026-11-20T12:00:00Z');
      await api.deps.knex('campaign_numbers').insert([
        { workspaceId: ws.id, campaignId: id, phone: '5511912345678', raw: '+55 11 91234-5678', normalized: '5511912345678', status: 'read', sentAt: at, deliveredAt: at, readAt: at },
        { workspaceId: ws.id, campaignId: id, phone: '=HYPERLINK("http://x")', raw: '=HYPERLINK("http://x")', normalized: null, status: 'invalid', error: 'Número inválido: informe DDI, DDD e número.' },
        { workspaceId: ws.id, campaignId: id, phone: '5521987654321', raw: '5521987654321', normalized: '5521987654321', status: 'failed', error: '@SUM(1+1)' },
      ]);
      return id;
    }

    async function sheetOf(res: Response): Promise<string[][]> {
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      expect(res.headers.get('content-disposition')).to.match(/^attachment; filename="campanha-\d+-/);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(await res.arrayBuffer());
      const rows: string[][] = [];
      // exceljs drops a row's trailing empty cells: pad to the report's 7 columns.
      wb.worksheets[0].eachRow((row) => rows.push(Array.from({ length: 7 }, (_, i) => String((row.values as unknown[])[i + 1] ?? ''))));
      return rows;
    }

    it('answers one row per number with the bearer token, every value as written in a string cell (never a formula, no apostrophe before +55…)', async () => {
      const id = await reportCampaign();
      const res = await fetch(`${api.url}/api/report/campaign/${id}`, { headers: { authorization: `Bearer ${owner.token}` } });
      const bytes = await res.clone().arrayBuffer();
      const rows = await sheetOf(res);
      expect(rows[0]).to.deep.equal(['Número (como enviado)', 'Número normalizado', 'Estado', 'Enviado em', 'Entregue em', 'Lido em', 'Erro']);
      expect(rows[1]).to.deep.equal(['+55 11 91234-5678', '5511912345678', 'Lida', '2026-11-20T12:00:00.000Z', '2026-11-20T12:00:00.000Z', '2026-11-20T12:00:00.000Z', '']);
      expect(rows[2]).to.deep.equal(['=HYPERLINK("http://x")', '', 'Inválido', '', '', '', 'Número inválido: informe DDI, DDD e número.']);
      expect(rows[3]).to.deep.equal(['5521987654321', '5521987654321', 'Falhou', '', '', '', '@SUM(1+1)']);
      // What makes those safe: every cell of the sheet is a string cell (no formula anywhere).
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(bytes);
      const types = new Set<number>();
      wb.worksheets[0].eachRow((row) => row.eachCell((cell) => types.add(cell.type)));
      expect([...types]).to.deep.equal([ExcelJS.ValueType.String]);
    });

    it("as .csv (?format=csv): `;`-separated UTF-8 with a BOM; an apostrophe only before what a spreadsheet would evaluate, not before a phone's '+' and digits", async () => {
      const id = await reportCampaign();
      await api.deps.knex('campaign_numbers').insert({ workspaceId: ws.id, campaignId: id, phone: '5511933334444', raw: '+5511933334444', normalized: '5511933334444', status: 'sent', error: '-1;"x"' });
      const res = await fetch(`${api.url}/api/report/campaign/${id}?format=csv`, { headers: { authorization: `Bearer ${owner.token}` } });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).to.match(/^attachment; filename="campanha-\d+-.*\.csv"$/);
      const text = Buffer.from(await res.arrayBuffer()).toString('utf8');
      expect(text.startsWith('\uFEFF')).to.equal(true);
      expect(text.slice(1).split('\r\n')).to.deep.equal([
        'Número (como enviado);Número normalizado;Estado;Enviado em;Entregue em;Lido em;Erro',
        // Spaces and a hyphen after '+': Excel would evaluate it (to an error), so it is prefixed.
        "'+55 11 91234-5678;5511912345678;Lida;2026-11-20T12:00:00.000Z;2026-11-20T12:00:00.000Z;2026-11-20T12:00:00.000Z;",
        '"\'=HYPERLINK(""http://x"")";;Inválido;;;;Número inválido: informe DDI, DDD e número.',
        "5521987654321;5521987654321;Falhou;;;;'@SUM(1+1)",
        '+5511933334444;5511933334444;Enviada;;;;"\'-1;""x"""',
        '',
      ]);
    });

    it('opens in a new window with a short-lived signed authorization for that campaign only', async () => {
      const id = await reportCampaign();
      const link = await api.request('POST', `/api/report/campaign/${id}/link`, { token: owner.token });
      expect(link.body.data.url).to.match(new RegExp(`^/api/report/campaign/${id}\\?authorization=`));
      const rows = await sheetOf(await fetch(`${api.url}${link.body.data.url}`));
      expect(rows).to.have.length(4);
      const other = await reportCampaign();
      const replayed = await fetch(`${api.url}${link.body.data.url.replace(`/campaign/${id}?`, `/campaign/${other}?`)}`);
      expect(replayed.status).to.equal(401);
      expect((await fetch(`${api.url}/api/report/campaign/${id}?authorization=${ws.id}.9999999999.${'A'.repeat(43)}`)).status).to.equal(401);
      expect((await fetch(`${api.url}/api/report/campaign/${id}`)).status).to.equal(401);
    });
  });
});
