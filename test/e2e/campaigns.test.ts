import { campaignLimitReached } from '../../api/billing/limits';
import { expect } from 'chai';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { REPORT_HEADER } from '../../api/campaigns/report';
import { NO_CAMPAIGNS_IN_PLAN } from '../../api/billing/limits';
import type { TestApi } from '../helpers/api';
import { useAppPage } from '../helpers/browser';
import { makeOperator, unique, type TestOperator } from '../helpers/factories';
import { GRAPH_ERRORS, MetaGraphFake, type GraphTemplateRecord } from '../fakes/metaGraph';
import { until, type WorkerSetup } from '../channels/helpers';
import { useGraphFakeAndWorker, withAppWorker } from './whatsappSteps';
import { insertCampaign, makeCampaignWorkspace, makeCloudLine, makeQrLineRow, type CloudLineRow } from '../campaigns/helpers';
import { logIn, toast } from './support';

const BUSINESS_ACCOUNT_ID = '102290129340398';
const TEMPLATES: GraphTemplateRecord[] = [
  {
    name: 'pedido_pronto',
    language: 'pt_BR',
    status: 'APPROVED',
    category: 'UTILITY',
    components: [{ type: 'BODY', text: 'Olá {{1}}, seu {{2}} está pronto.', example: { body_text: [['Maria', 'pedido']] } }],
  },
  {
    name: 'oferta_imagem',
    language: 'pt_BR',
    status: 'APPROVED',
    category: 'MARKETING',
    components: [
      { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['4::aW1hZ2UvcG5n'] } },
      { type: 'BODY', text: 'Olá {{1}}, veja a oferta!', example: { body_text: [['Maria']] } },
    ],
  },
];

/** A real 1×1 PNG: the upload reads the type from the bytes. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** The numbers file: a header, four sendable numbers, one invalid and one repeated. */
const NUMBERS_CSV = [
  'telefone;nome;item',
  '5511987650001;Maria;pedido',
  '+55 11 98765-0002;João;conserto',
  '12345;Ninguém;nada',
  '5511987650001;Maria de novo;pedido',
  '5511987650003;Ana;boleto',
  '5511987650004;Carlos;troca',
].join('\n');

/**
 * e2e of WhatsApp campaigns (issue 15): the whole wizard with bad input at each step against a Cloud line
 * pointed at the Meta Graph fake; a trial told before the wizard that its plan has no campaigns (issue 25), and
 * a plan that lost them while the wizard was open refused on the page with the button usable again;
 * the progress live to 'Finalizado' with zero waits between messages; pause and resume (during the wait
 * between batches, which holds the run still); the report downloaded and read row by row with exceljs;
 * cancel confirmed first; only the name editable.
 */
describe('e2e: WhatsApp campaigns (wizard, live progress, pause/resume, report)', function () {
  this.timeout(180_000);
  const graph = new MetaGraphFake();
  let setup: WorkerSetup;
  let api: TestApi;
  let page: Page;
  let owner: TestOperator;
  let workspaceId: number;
  let line: CloudLineRow;

  useGraphFakeAndWorker(graph, (s) => (setup = s));
  useAppPage((s) => ({ api, page } = s), () => ({ metaGraphUrl: graph.url, temporalTaskQueue: unique('e2e-campaign') }));
  beforeEach(async () => {
    // A plan without campaigns (a trial) first: each test grants a unit when it needs one.
    const ws = await makeCampaignWorkspace(api.deps.knex, 0);
    workspaceId = ws.id;
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10, { name: 'Ana Gestora' });
    line = await makeCloudLine(api.deps.knex, api.config, ws.id);
    graph.allowToken(line.token);
    graph.sent.length = 0;
    graph.templates.set(BUSINESS_ACCOUNT_ID, TEMPLATES);
  });

  /**
   * Runs `fn` while a worker runs the campaign workflow and its activities (no rate limit in the way; one
   * Cloud call at a time, as the test names the number Meta refuses by the order the sends reach the fake).
   */
  const withWorker = (fn: () => Promise<void>) => withAppWorker(api, setup, fn, { campaigns: { send: { cloudRatePerSecond: 1000, cloudConcurrency: 1, initialRetryMs: 100, maxRetryMs: 300 } } });

  const next = () => page.getByRole('button', { name: 'Próximo', exact: true }).click();
  const helper = (text: string | RegExp) => page.locator('.MuiFormHelperText-root', { hasText: text }).first().waitFor();
  const spin = (name: string) => page.getByRole('spinbutton', { name });
  const row = () => page.getByTestId('campaign-row').first();
  const campaignRow = () => api.deps.knex('campaigns').where({ workspaceId }).orderBy('id', 'desc').first();

  async function dayInWorkspace(offsetDays: number): Promise<string> {
    const ws = await api.deps.knex('workspaces').where({ id: workspaceId }).first('time_zone');
    const at = new Date(Date.now() + offsetDays * 86_400_000);
    return new Intl.DateTimeFormat('en-CA', { timeZone: ws.timeZone ?? 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
  }

  it("a trial (no campaign units) is told so on the campaigns page and at the wizard's first step, with the link to Assinatura, before filling anything: 'Nova campanha' and 'Próximo' stay off", async () => {
    await logIn(page, owner);
    await page.goto('/campaigns');
    const notice = page.getByTestId('campaign-plan-notice');
    await notice.filter({ hasText: NO_CAMPAIGNS_IN_PLAN }).waitFor();
    expect(await page.getByRole('link', { name: 'Nova campanha', exact: true }).getAttribute('aria-disabled')).to.equal('true');
    await page.getByText('Criar uma nova campanha').waitFor();
    expect(await page.getByRole('link', { name: 'Criar uma nova campanha' }).count()).to.equal(0);

    // The wizard opened by its address says the same at its first step, and goes no further.
    await page.goto('/campaigns/new');
    await notice.filter({ hasText: NO_CAMPAIGNS_IN_PLAN }).waitFor();
    expect(await page.getByRole('button', { name: 'Próximo', exact: true }).isDisabled()).to.equal(true);
    expect(await page.getByRole('radio', { name: 'WhatsApp' }).isDisabled()).to.equal(true);
    await notice.getByRole('link', { name: 'Assinatura' }).click();
    await page.waitForURL('**/settings/billing/license');

    // Once the plan has a campaign unit, the page lets one be created.
    await api.deps.knex('subscriptions').where({ workspaceId }).update({ campaignUnits: 1 });
    await page.goto('/campaigns');
    await page.getByRole('link', { name: 'Criar uma nova campanha' }).waitFor();
    expect(await notice.count()).to.equal(0);
    expect(await page.getByRole('link', { name: 'Nova campanha', exact: true }).getAttribute('aria-disabled')).to.equal(null);
  });

  it('goes through the wizard refusing bad input at each step, runs live to Finalizado with pause, resume and a number Meta refuses, and downloads the report row by row', async () => {
    await api.deps.knex('subscriptions').where({ workspaceId }).update({ campaignUnits: 1 });
    await logIn(page, owner);
    await page.goto('/campaigns');
    await page.getByRole('link', { name: 'Criar uma nova campanha' }).click();
    await page.waitForURL('**/campaigns/new');

    // Step 1 — type: nothing chosen.
    await next();
    await helper('Escolha o tipo da campanha.');
    await page.getByRole('radio', { name: 'WhatsApp' }).check();
    await next();

    // Step 2 — name and file: both missing, then a file of a refused type, then the real one.
    await next();
    await helper('O nome da campanha é obrigatório.');
    await helper('Envie o arquivo com os números (.csv, .xls, .xlsx, .txt ou .xml).');
    const fileInput = page.locator('input[type="file"]');
    // The button opens the file chooser from the keyboard too.
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Escolher arquivo' }).focus();
    await page.keyboard.press('Enter');
    await (await chooser).setFiles({ name: 'numeros.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') });
    await helper('Formato de arquivo não suportado: use .csv, .xls, .xlsx, .txt ou .xml.');
    await page.getByLabel(/^Nome da campanha/).fill('   ');
    await fileInput.setInputFiles({ name: 'numeros.csv', mimeType: 'text/csv', buffer: Buffer.from(NUMBERS_CSV) });
    await page.getByTestId('campaign-file').filter({ hasText: 'Arquivo enviado: numeros.csv' }).waitFor();
    await next();
    await helper('O nome da campanha é obrigatório.');
    await page.getByLabel(/^Nome da campanha/).fill('Pedidos prontos');
    await next();

    // Step 3 — the line, then its approved template (a Cloud line sends templates only).
    await next();
    await helper('Escolha a linha de WhatsApp da campanha.');
    await page.getByRole('combobox', { name: 'Linha de WhatsApp' }).click();
    await page.getByRole('option', { name: 'Campanhas' }).click();
    await page.getByRole('combobox', { name: 'Modelo de mensagem aprovado' }).waitFor();
    await next();
    await helper('Escolha o modelo de mensagem aprovado.');
    await page.getByRole('combobox', { name: 'Modelo de mensagem aprovado' }).click();
    await page.getByRole('option', { name: /pedido_pronto/ }).click();
    const variables = page.getByTestId('campaign-template-variables');
    // The file's own headers name the columns; the preview is filled with its first row.
    await variables.getByText('{{1}} ← nome (coluna 2 do arquivo)').waitFor();
    await variables.getByText('{{2}} ← item (coluna 3 do arquivo)').waitFor();
    expect(await page.getByTestId('campaign-preview').textContent()).to.equal('Olá Maria, seu pedido está pronto.');
    await next();

    // Step 4 — timing: defaults shown; create disabled until the acceptance; bad values refused.
    expect(await spin('Tamanho do lote').inputValue()).to.equal('100');
    expect(await spin('Tempo entre lotes (segundos)').inputValue()).to.equal('1800');
    expect(await spin('Tempo mínimo entre mensagens (segundos)').inputValue()).to.equal('1');
    expect(await spin('Tempo máximo entre mensagens (segundos)').inputValue()).to.equal('5');
    const create = page.getByRole('button', { name: 'Criar Campanha' });
    expect(await create.isDisabled()).to.equal(true);
    await page.getByRole('checkbox', { name: /não se responsabiliza por banimentos/ }).check();
    expect(await create.isDisabled()).to.equal(false);
    await spin('Tamanho do lote').fill('0');
    await spin('Tempo entre lotes (segundos)').fill('-1');
    await page.getByLabel('Data de início').fill(`${await dayInWorkspace(-1)}T10:00`);
    await create.click();
    await helper('O tamanho do lote deve ser no mínimo 1.');
    await helper('Tempo entre lotes: o mínimo é 0.');
    await helper('A data de início não pode ser anterior a hoje.');
    // The maximum wait is raised to the minimum when smaller.
    await spin('Tempo máximo entre mensagens (segundos)').fill('3');
    await spin('Tempo mínimo entre mensagens (segundos)').fill('7');
    await spin('Tempo mínimo entre mensagens (segundos)').blur();
    await helper('O tempo máximo foi ajustado para o mínimo.');
    expect(await spin('Tempo máximo entre mensagens (segundos)').inputValue()).to.equal('7');
    // Two per batch, zero waits between messages; the hour between batches holds the run for the pause.
    await page.getByLabel('Data de início').fill('');
    await spin('Tamanho do lote').fill('2');
    await spin('Tempo entre lotes (segundos)').fill('3600');
    await spin('Tempo mínimo entre mensagens (segundos)').fill('0');
    await spin('Tempo máximo entre mensagens (segundos)').fill('0');

    // The plan lost its campaigns while the wizard was open: refused on the page, and the button works again.
    await api.deps.knex('subscriptions').where({ workspaceId }).update({ campaignUnits: 0 });
    await create.click();
    await page.getByTestId('campaign-refusal').filter({ hasText: NO_CAMPAIGNS_IN_PLAN }).waitFor();
    await page.getByRole('progressbar', { name: 'Criando campanha...' }).waitFor({ state: 'detached' });
    expect(await create.isDisabled()).to.equal(false);
    const [{ n }] = await api.deps.knex('campaigns').where({ workspaceId }).count({ n: '*' });
    expect(Number(n)).to.equal(0);
    await api.deps.knex('subscriptions').where({ workspaceId }).update({ campaignUnits: 1 });

    // Created while no worker runs: the campaign waits for its file, shown on the list with 0 / 0 and 0%.
    await create.click();
    await toast(page, 'Campanha criada.');
    await page.waitForURL(/\/campaigns\/\d+$/);
    const created = await campaignRow();
    expect(created).to.deep.include({ name: 'Pedidos prontos', chunks: 2, timeBetweenChunks: 3600, initialTimeBetweenMessages: 0, finalTimeBetweenMessages: 0, channelId: line.id, status: 'waiting_file_processing' });
    expect(created.template).to.deep.equal({ name: 'pedido_pronto', language: 'pt_BR' });
    await page.locator('[data-testid="campaign-status"][data-status="waiting_file_processing"]', { hasText: 'Aguardando processamento...' }).waitFor();
    await page.getByRole('main').getByRole('link', { name: 'Campanhas' }).click();
    await page.waitForURL('**/campaigns');
    await row().getByTestId('campaign-sent').filter({ hasText: '0 / 0' }).waitFor();
    expect(await row().getByTestId('campaign-completion').textContent()).to.equal('0%');
    expect(await row().getByRole('cell').nth(2).textContent()).to.equal('WhatsApp');
    // A marker in the page: the list must change without a reload.
    await page.evaluate('window.__sameListPage = true');

    await withWorker(async () => {
      // The worker processes the file and sends the first batch: the list follows live.
      await row().getByTestId('campaign-sent').filter({ hasText: '2 / 4' }).waitFor();
      await row().getByTestId('campaign-completion').filter({ hasText: '50%' }).waitFor();
      await row().locator('[data-testid="campaign-status"][data-status="executing"]', { hasText: 'Em execução' }).waitFor();
      await row().getByTestId('campaign-status-spinner').waitFor();
      expect(await page.evaluate('window.__sameListPage')).to.equal(true);
      expect(graph.sent.map((s) => s.body.to)).to.deep.equal(['5511987650001', '5511987650002']);
      expect(graph.sent[0].body.template).to.deep.equal({
        name: 'pedido_pronto',
        language: { code: 'pt_BR' },
        components: [{ type: 'body', parameters: [{ type: 'text', text: 'Maria' }, { type: 'text', text: 'pedido' }] }],
      });

      // The detail: counters and batches, waiting for the next batch while 'Em execução'.
      await row().getByRole('button', { name: 'Ver campanha' }).click();
      await page.getByTestId('campaign-executed').filter({ hasText: '2 / 4' }).waitFor();
      expect(await page.getByTestId('campaign-detail-completion').textContent()).to.equal('50%');
      expect(await page.getByTestId('campaign-invalid').textContent()).to.equal('2');
      const batches = page.getByTestId('campaign-batch');
      expect(await batches.count()).to.equal(2);
      expect([await batches.nth(0).getAttribute('data-state'), await batches.nth(1).getAttribute('data-state')]).to.deep.equal(['done', 'waiting']);

      // Pause: the wait between batches ends, nothing more goes out; resume sends the second batch.
      await page.getByRole('button', { name: 'Pausar' }).click();
      await toast(page, 'Campanha pausada');
      await page.locator('[data-testid="campaign-status"][data-status="paused"]', { hasText: 'Pausado' }).waitFor();
      await until(async () => (await campaignRow()).status === 'paused');
      expect(graph.sent).to.have.length(2);
      // Meta refuses the next send for good: that number fails with its reason, the campaign goes on.
      graph.nextSendErrors.push(GRAPH_ERRORS.reEngagement);
      await page.getByRole('button', { name: 'Retomar' }).click();
      await toast(page, 'Campanha retomada');
      await page.getByTestId('campaign-executed').filter({ hasText: '4 / 4' }).waitFor();
      await page.getByTestId('campaign-detail-completion').filter({ hasText: '100%' }).waitFor();
      await page.locator('[data-testid="campaign-status"][data-status="finished_success"]', { hasText: 'Finalizado' }).waitFor();
      expect(graph.sent.map((s) => s.body.to)).to.deep.equal(['5511987650001', '5511987650002', '5511987650004']);
      await page.getByTestId('campaign-failed').filter({ hasText: '1' }).waitFor();
      expect(await page.getByRole('button', { name: 'Pausar' }).count()).to.equal(0);
      expect(await page.getByRole('button', { name: 'Cancelar campanha' }).count()).to.equal(0);
    });

    // Numbers by state, filterable.
    await page.locator('[data-testid="campaign-number"]').nth(5).waitFor();
    await page.getByRole('combobox', { name: 'Situação' }).click();
    await page.getByRole('option', { name: 'Inválido (1)' }).click();
    await page.locator('[data-testid="campaign-number"]').nth(1).waitFor({ state: 'detached' });
    const invalidRow = page.getByTestId('campaign-number');
    expect(await invalidRow.getAttribute('data-status')).to.equal('invalid');
    expect(await invalidRow.getByRole('cell').first().textContent()).to.equal('12345');
    await page.getByRole('combobox', { name: 'Situação' }).click();
    await page.getByRole('option', { name: 'Falhou (1)' }).click();
    const failedRow = page.locator('[data-testid="campaign-number"][data-status="failed"]');
    await failedRow.waitFor();
    expect(await page.getByTestId('campaign-number').count()).to.equal(1);
    expect(await failedRow.getByRole('cell').first().textContent()).to.equal('5511987650003');
    expect(await failedRow.getByRole('cell').last().textContent()).to.match(/24 horas/);

    // The report: 'Campanha baixada', one row per row of the file, read with exceljs.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Baixar relatório' }).click()]);
    await toast(page, 'Campanha baixada');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile((await download.path())!);
    const sheet = workbook.worksheets[0]!;
    const rows: string[][] = [];
    sheet.eachRow((r) => rows.push(Array.from({ length: REPORT_HEADER.length }, (_, i) => {
      const v = r.getCell(i + 1).value;
      return v === null || v === undefined ? '' : String(v);
    })));
    expect(rows[0]).to.deep.equal(REPORT_HEADER);
    const body = rows.slice(1);
    expect(body.map((r) => [r[0], r[1], r[2]])).to.deep.equal([
      ['5511987650001', '5511987650001', 'Enviada'],
      // As written in the file: an .xlsx string cell is never a formula, so no apostrophe before '+'.
      ['+55 11 98765-0002', '5511987650002', 'Enviada'],
      ['12345', '', 'Inválido'],
      ['5511987650001', '5511987650001', 'Duplicado'],
      ['5511987650003', '5511987650003', 'Falhou'],
      ['5511987650004', '5511987650004', 'Enviada'],
    ]);
    expect(body[4]![6]).to.match(/24 horas/);
    for (const r of body) {
      if (r[2] === 'Enviada') expect(Number.isNaN(Date.parse(r[3]!)), `sent at of ${r[0]}: ${r[3]}`).to.equal(false);
      else if (r[2] !== 'Falhou') expect(r[3]).to.equal('');
    }
    expect(body[2]![6]).to.equal('Número inválido: informe DDI, DDD e número.');
    expect(body[3]![6]).to.equal('Número repetido no arquivo: enviado uma vez só.');
  });

  it('renames a campaign (only the name) and cancels one only after confirming', async () => {
    await api.deps.knex('subscriptions').where({ workspaceId }).update({ campaignUnits: 1 });
    const id = await insertCampaign(api.deps.knex, { workspaceId, channelId: line.id, status: 'paused' });
    await logIn(page, owner);
    await page.goto('/campaigns');
    await row().getByRole('button', { name: 'Editar nome' }).click();
    const dialog = page.getByRole('dialog', { name: 'Editar campanha' });
    await dialog.getByLabel('Nome da campanha').fill('');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await dialog.locator('.MuiFormHelperText-root', { hasText: 'O nome da campanha é obrigatório.' }).waitFor();
    await dialog.getByLabel('Nome da campanha').fill('Black Friday');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Campanha alterada.');
    await row().getByRole('link', { name: 'Black Friday' }).waitFor();
    expect((await api.deps.knex('campaigns').where({ id }).first()).name).to.equal('Black Friday');

    await row().getByRole('link', { name: 'Black Friday' }).click();
    await page.waitForURL(`**/campaigns/${id}`);
    await page.locator('[data-testid="campaign-status"][data-status="paused"]').waitFor();
    await page.getByRole('button', { name: 'Cancelar campanha' }).click();
    await page.getByRole('dialog', { name: 'Cancelar a campanha?' }).getByRole('button', { name: 'Voltar' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect((await api.deps.knex('campaigns').where({ id }).first()).status).to.equal('paused');
    await page.getByRole('button', { name: 'Cancelar campanha' }).click();
    await page.getByRole('dialog', { name: 'Cancelar a campanha?' }).getByRole('button', { name: 'Cancelar campanha' }).click();
    await page.locator('[data-testid="campaign-status"][data-status="canceled"]', { hasText: 'Cancelado' }).waitFor();
    expect((await api.deps.knex('campaigns').where({ id }).first()).status).to.equal('canceled');
    expect(await page.getByRole('button', { name: 'Retomar' }).count()).to.equal(0);
  });
  it('on a QR line the message is free text: an empty one is refused, the column buttons insert {{n}}, and the campaign stores it without a template', async () => {
    await api.deps.knex('subscriptions').where({ workspaceId }).update({ campaignUnits: 1 });
    await makeQrLineRow(api.deps.knex, workspaceId);
    await logIn(page, owner);
    await page.goto('/campaigns/new');
    await page.getByRole('radio', { name: 'WhatsApp' }).check();
    await next();
    await page.getByLabel(/^Nome da campanha/).fill('Avisos QR');
    await page.locator('input[type="file"]').setInputFiles({ name: 'lista.txt', mimeType: 'text/plain', buffer: Buffer.from('5511987650001,Maria\n') });
    await page.getByTestId('campaign-file').filter({ hasText: 'lista.txt' }).waitFor();
    await next();
    await page.getByRole('combobox', { name: 'Linha de WhatsApp' }).click();
    await page.getByRole('option', { name: 'QR' }).click();
    const message = page.getByRole('textbox', { name: 'Mensagem' });
    await message.waitFor();
    expect(await page.getByRole('combobox', { name: 'Modelo de mensagem aprovado' }).count()).to.equal(0);
    await message.fill('   ');
    await next();
    await helper('Escreva a mensagem da campanha.');
    await message.fill('Oi ');
    await page.getByRole('button', { name: /^\{\{1\}\}/ }).click();
    await message.press('End');
    await message.pressSequentially(', sua entrega chega hoje.');
    expect(await message.inputValue()).to.equal('Oi {{1}}, sua entrega chega hoje.');
    // No header row: the chips say 'Inserir coluna 2'…, and the preview still takes the first row's values.
    expect(await page.getByTestId('campaign-column-chips').getByRole('button').allTextContents()).to.deep.equal(['Inserir coluna 2']);
    expect(await page.getByTestId('campaign-preview').textContent()).to.equal('Oi Maria, sua entrega chega hoje.');
    // A document goes with the text as its caption on a QR line.
    await page.locator('input[type="file"][aria-label^="Anexo"]').setInputFiles({ name: 'catalogo.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%%EOF\n') });
    await page.getByTestId('campaign-attachment').filter({ hasText: 'catalogo.pdf' }).waitFor();
    await next();
    await page.getByRole('checkbox', { name: /não se responsabiliza por banimentos/ }).check();
    await page.getByRole('button', { name: 'Criar Campanha' }).click();
    await toast(page, 'Campanha criada.');
    const created = await campaignRow();
    expect(created.template).to.equal(null);
    expect(created.message).to.deep.equal([{ insert: 'Oi {{1}}, sua entrega chega hoje.' }]);
    expect(created.mediaFile).to.deep.include({ fileName: 'catalogo.pdf', mime: 'application/pdf' });
    expect(created).to.deep.include({ chunks: 100, timeBetweenChunks: 1800, initialTimeBetweenMessages: 1, finalTimeBetweenMessages: 5 });
  });
  it("names the message's variable chips after the file's own column headers and fills the preview with its first row", async () => {
    await api.deps.knex('subscriptions').where({ workspaceId }).update({ campaignUnits: 1 });
    await makeQrLineRow(api.deps.knex, workspaceId);
    await logIn(page, owner);
    await page.goto('/campaigns/new');
    await page.getByRole('radio', { name: 'WhatsApp' }).check();
    await next();
    await page.getByLabel(/^Nome da campanha/).fill('Pedidos da semana');
    await page.locator('input[type="file"]').setInputFiles({ name: 'pedidos.csv', mimeType: 'text/csv', buffer: Buffer.from('telefone,nome,pedido\n5511987650001,Ana Souza,#1042\n5511987650002,Bruno,#1043\n') });
    await page.getByTestId('campaign-file').filter({ hasText: 'pedidos.csv' }).waitFor();
    await next();
    await page.getByRole('combobox', { name: 'Linha de WhatsApp' }).click();
    await page.getByRole('option', { name: 'QR' }).click();
    const message = page.getByRole('textbox', { name: 'Mensagem' });
    await message.waitFor();
    // One chip per column after the phone, in the product's {{n}} syntax, named by the header.
    const chips = page.getByTestId('campaign-column-chips').getByRole('button');
    expect(await chips.allTextContents()).to.deep.equal(['{{1}} nome', '{{2}} pedido']);
    await message.fill('Olá ');
    await chips.filter({ hasText: 'nome' }).click();
    await message.press('End');
    await message.pressSequentially(', o pedido ');
    await chips.filter({ hasText: 'pedido' }).click();
    await message.press('End');
    await message.pressSequentially(' saiu para entrega.');
    expect(await message.inputValue()).to.equal('Olá {{1}}, o pedido {{2}} saiu para entrega.');
    expect(await page.getByTestId('campaign-preview').textContent()).to.equal('Olá Ana Souza, o pedido #1042 saiu para entrega.');
    await page.getByText('Com os valores da primeira linha do arquivo.').waitFor();
    // On a phone the chips and the preview stay inside the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    for (const el of [...(await chips.all()), page.getByTestId('campaign-preview')]) {
      const box = (await el.boundingBox())!;
      expect(box.x).to.be.at.least(0);
      expect(box.x + box.width).to.be.at.most(390);
    }
  });

  it('attaches a file to the message: refused where WhatsApp or the template would not take it, removed and attached again, sent by the worker as the image header and shown in the detail', async () => {
    await api.deps.knex('subscriptions').where({ workspaceId }).update({ campaignUnits: 1 });
    await logIn(page, owner);
    await page.goto('/campaigns/new');
    await page.getByRole('radio', { name: 'WhatsApp' }).check();
    await next();
    await page.getByLabel(/^Nome da campanha/).fill('Oferta com imagem');
    await page.locator('input[type="file"]').setInputFiles({ name: 'numeros.csv', mimeType: 'text/csv', buffer: Buffer.from('5511987650001;Maria\n5511987650002;João\n') });
    await page.getByTestId('campaign-file').filter({ hasText: 'numeros.csv' }).waitFor();
    await next();

    await page.getByRole('combobox', { name: 'Linha de WhatsApp' }).click();
    await page.getByRole('option', { name: 'Campanhas' }).click();
    await page.getByRole('combobox', { name: 'Modelo de mensagem aprovado' }).click();
    await page.getByRole('option', { name: /^pedido_pronto/ }).click();
    const attach = page.locator('input[type="file"][aria-label^="Anexo"]');
    await helper('Só modelos com cabeçalho de imagem, vídeo ou documento levam anexo: o arquivo vai no cabeçalho.');
    // A type WhatsApp does not take is refused before uploading.
    const attachChooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Anexar arquivo' }).focus();
    await page.keyboard.press('Space');
    await (await attachChooser).setFiles({ name: 'animacao.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
    await helper(/^Tipo de anexo não aceito pelo WhatsApp/);
    expect(await page.getByTestId('campaign-attachment').count()).to.equal(0);
    // A template without a media header takes no file.
    await attach.setInputFiles({ name: 'promo.png', mimeType: 'image/png', buffer: PNG });
    await page.getByTestId('campaign-attachment').filter({ hasText: 'promo.png' }).waitFor();
    expect(await page.getByTestId('campaign-preview-attachment').textContent()).to.equal('promo.png');
    await next();
    await helper(/^O modelo escolhido não tem cabeçalho de imagem, vídeo ou documento/);

    // The image-header template: it needs the file; removed, it is asked for; attached again, it goes.
    await page.getByRole('combobox', { name: 'Modelo de mensagem aprovado' }).click();
    await page.getByRole('option', { name: /^oferta_imagem/ }).click();
    await helper('Este modelo tem cabeçalho de imagem: anexe o arquivo que vai no cabeçalho.');
    await page.getByRole('button', { name: 'Remover anexo promo.png' }).click();
    expect(await page.getByTestId('campaign-attachment').count()).to.equal(0);
    await next();
    await helper('Este modelo tem cabeçalho de mídia: anexe o arquivo.');
    await attach.setInputFiles({ name: 'promo.png', mimeType: 'image/png', buffer: PNG });
    await page.getByTestId('campaign-attachment').filter({ hasText: 'promo.png' }).waitFor();
    await next();

    await spin('Tempo mínimo entre mensagens (segundos)').fill('0');
    await spin('Tempo máximo entre mensagens (segundos)').fill('0');
    await page.getByRole('checkbox', { name: /não se responsabiliza por banimentos/ }).check();
    await page.getByRole('button', { name: 'Criar Campanha' }).click();
    await toast(page, 'Campanha criada.');
    await page.waitForURL(/\/campaigns\/\d+$/);
    const created = await campaignRow();
    expect(created.template).to.deep.equal({ name: 'oferta_imagem', language: 'pt_BR' });
    expect(created.mediaFile).to.deep.include({ fileName: 'promo.png', mime: 'image/png', size: PNG.length });
    const link = page.getByRole('link', { name: 'Abrir anexo promo.png' });
    await link.waitFor();
    const image = await page.request.get((await link.getAttribute('href'))!.replace(api.config.publicUrl, api.url));
    expect(image.status()).to.equal(200);
    expect(Buffer.compare(await image.body(), PNG)).to.equal(0);

    await withWorker(async () => {
      await page.locator('[data-testid="campaign-status"][data-status="finished_success"]', { hasText: 'Finalizado' }).waitFor();
    });
    const uploads = graph.uploads.filter((u) => u.phoneNumberId === line.phoneNumberId);
    expect(uploads.map((u) => u.mime)).to.deep.equal(['image/png']);
    // Each number once (a Cloud line may have a few sends in flight at once: their order is not fixed).
    expect(graph.sent.map((s) => s.body.to).sort()).to.deep.equal(['5511987650001', '5511987650002']);
    expect(graph.sent.find((s) => s.body.to === '5511987650001')!.body.template).to.deep.equal({
      name: 'oferta_imagem',
      language: { code: 'pt_BR' },
      components: [
        { type: 'header', parameters: [{ type: 'image', image: { id: uploads[0].id } }] },
        { type: 'body', parameters: [{ type: 'text', text: 'Maria' }] },
      ],
    });
  });
  it('keeps agents below level 6 out, pages the list by 20, and refuses a resume past the plan with the status-change error', async () => {
    await api.deps.knex('subscriptions').where({ workspaceId }).update({ campaignUnits: 1 });
    const agent = await makeOperator(api.deps.knex, api.config.jwtSecret, { id: workspaceId, name: 'ws' }, 3, { name: 'Beto Agente' });
    await logIn(page, agent);
    await page.getByRole('banner').getByRole('link', { name: 'Mensagens' }).waitFor();
    expect(await page.getByRole('banner').getByRole('link', { name: 'Campanhas' }).count()).to.equal(0);
    await page.goto('/campaigns');
    await page.getByText('Você não tem permissão para acessar esta página.').waitFor();
    expect(await page.getByTestId('campaign-row').count()).to.equal(0);
    await page.evaluate('localStorage.clear()');

    // The oldest one runs (the plan's only slot); 21 newer ones are paused.
    const running = await insertCampaign(api.deps.knex, { workspaceId, channelId: line.id, status: 'executing' });
    await api.deps.knex('campaigns').where({ id: running }).update({ name: 'A mais antiga', createdAt: new Date(Date.now() - 3_600_000) });
    for (let i = 0; i < 21; i++) await insertCampaign(api.deps.knex, { workspaceId, channelId: line.id, status: 'paused' });
    await logIn(page, owner);
    await page.goto('/campaigns');
    await page.getByText('1–20 de 22').waitFor();
    expect(await page.getByTestId('campaign-row').count()).to.equal(20);
    await page.getByRole('button', { name: 'Próxima página' }).click();
    await page.getByText('21–22 de 22').waitFor();
    // The pager's label follows the page at once; the rows follow when the page's answer arrives.
    await page.getByTestId('campaign-row').nth(2).waitFor({ state: 'detached' });
    expect(await page.getByTestId('campaign-row').count()).to.equal(2);
    await page.getByTestId('campaign-row').last().getByRole('link', { name: 'A mais antiga' }).waitFor();
    await page.getByRole('button', { name: 'Página anterior' }).click();
    await page.getByText('1–20 de 22').waitFor();

    await row().getByRole('button', { name: 'Ver campanha' }).click();
    await page.getByRole('button', { name: 'Retomar' }).click();
    await toast(page, `Erro ao alterar status da campanha: ${campaignLimitReached(1)}`);
    await page.locator('[data-testid="campaign-status"][data-status="paused"]', { hasText: 'Pausado' }).waitFor();
    expect(await page.getByRole('button', { name: 'Retomar' }).isDisabled()).to.equal(false);
    const [{ n: paused }] = await api.deps.knex('campaigns').where({ workspaceId, status: 'paused' }).count({ n: '*' });
    expect(Number(paused)).to.equal(21);
  });
});
