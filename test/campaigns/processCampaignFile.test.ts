import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Knex } from 'knex';
import ExcelJS from 'exceljs';
import { loadConfig, type Config } from '../../api/config';
import { createLogger } from '../../api/logger';
import { processCampaignFile } from '../../activities/campaigns/processCampaignFile';
import { DEFAULT_NUMBERS_FILE_LIMITS } from '../../activities/campaigns/numbersFile';
import { testDatabase } from '../helpers/db';
import { RecordingPublisher } from '../workflows/subscription/rows';
import { insertCampaign, makeCampaignWorkspace, makeCloudLine, phones, storeUpload } from './helpers';

describe('campaign file processing activity: rows into campaign_numbers (real database)', function () {
  this.timeout(120_000);
  let knex: Knex;
  let config: Config;
  let ws: { id: number };
  let channelId: number;
  const run = (campaignId: number, limits = DEFAULT_NUMBERS_FILE_LIMITS) =>
    processCampaignFile({ knex, config, publisher: new RecordingPublisher(), logger: createLogger('silent') }, limits)({ campaignId });

  before(async () => {
    ({ knex } = await testDatabase());
    config = loadConfig({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'balcao-campaign-file-')), JWT_SECRET: 'x'.repeat(48), MQTT_INTERNAL_PASSWORD: 'x' });
  });
  beforeEach(async () => {
    ws = await makeCampaignWorkspace(knex);
    channelId = (await makeCloudLine(knex, config, ws.id)).id;
  });

  const campaignWith = async (fileName: string, bytes: Buffer, mime?: string) => insertCampaign(knex, { workspaceId: ws.id, channelId, file: await storeUpload(knex, config, ws.id, fileName, bytes, mime) });
  const numbers = (campaignId: number) => knex('campaign_numbers').where({ campaignId }).orderBy('id').select('raw', 'normalized', 'status', 'variables', 'error');

  it('stores valid, invalid, duplicate and opted-out rows with their reasons, skipping the header; totals count only sendable numbers', async () => {
    await knex('campaign_opt_outs').insert({ workspaceId: ws.id, phone: '5531987654321', word: 'SAIR' });
    const csv = ['telefone;nome;cupom', '+55 (11) 91234-5678;Ana;A1', '11912345678;Ana de novo;A2', 'abc;Zé;Z', '5531987654321;Carla;C', '551181234567;Davi;D', ''].join('\n');
    const id = await campaignWith('lista.csv', Buffer.from(csv));
    expect(await run(id)).to.deep.equal({ status: 'waiting_processing', totalNumbers: 2 });
    const rows = await numbers(id);
    expect(rows.map((r) => [r.raw, r.normalized, r.status])).to.deep.equal([
      ['+55 (11) 91234-5678', '5511912345678', 'pending'],
      ['11912345678', '5511912345678', 'duplicate'],
      ['abc', null, 'invalid'],
      ['5531987654321', '5531987654321', 'opted_out'],
      ['551181234567', '5511981234567', 'pending'],
    ]);
    expect(rows[0].variables).to.deep.equal({ '1': 'Ana', '2': 'A1' });
    expect(rows[2].error).to.equal('Número inválido: informe DDI, DDD e número.');
    expect(await knex('campaigns').where({ id }).first()).to.include({ status: 'waiting_processing', totalNumbers: 2, totalNumbersInvalid: 3, error: null });
  });

  it('is idempotent: a second run (a retried activity) changes nothing', async () => {
    const id = await campaignWith('lista.txt', Buffer.from(phones(3).join('\n')), 'text/plain');
    await run(id);
    expect(await run(id)).to.deep.equal({ status: 'waiting_processing', totalNumbers: 3 });
    expect(await numbers(id)).to.have.length(3);
  });

  it('reads xlsx and xml files the same way', async () => {
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('Lista');
    sheet.addRow(['Telefone', 'Nome']);
    sheet.addRow([5511912345678, 'Ana']);
    sheet.addRow(['21987654321', 'Bruno']);
    const x = await campaignWith('lista.xlsx', Buffer.from(await wb.xlsx.writeBuffer()), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(await run(x)).to.deep.equal({ status: 'waiting_processing', totalNumbers: 2 });
    expect((await numbers(x)).map((r) => r.normalized)).to.deep.equal(['5511912345678', '5521987654321']);
    const m = await campaignWith('lista.xml', Buffer.from('<lista><c><tel>5511912345678</tel><nome>Ana</nome></c></lista>'), 'application/xml');
    expect(await run(m)).to.deep.equal({ status: 'waiting_processing', totalNumbers: 1 });
    expect((await numbers(m))[0].variables).to.deep.equal({ '1': 'Ana' });
  });

  it('reads an .xls (Excel 97–2003) the same way: header skipped, numbers stored as numbers whole, columns 2, 3… as {{1}}, {{2}}…', async () => {
    const x = await campaignWith('numeros.xls', readFileSync(path.join(__dirname, 'fixtures', 'numeros.xls')), 'application/vnd.ms-excel');
    expect(await run(x)).to.deep.equal({ status: 'waiting_processing', totalNumbers: 3 });
    const rows = await numbers(x);
    expect(rows.map((r) => [r.raw, r.normalized, r.status])).to.deep.equal([
      ['+55 (11) 98765-0001', '5511987650001', 'pending'],
      ['5511987650002', '5511987650002', 'pending'],
      ['11 8765-0003', '5511987650003', 'pending'],
      ['12345', null, 'invalid'],
    ]);
    expect(rows[1].variables).to.deep.equal({ '1': 'João', '2': '2' });
  });

  it('a refused file finishes the campaign with the reason and no numbers: a broken xls, too large (by its stored size, unread), nothing valid', async () => {
    const xls = await campaignWith('antiga.xls', Buffer.from([0xd0, 0xcf, 0x11, 0xe0]), 'application/vnd.ms-excel');
    expect(await run(xls)).to.deep.equal({ status: 'finished_fail', totalNumbers: 0 });
    expect((await knex('campaigns').where({ id: xls }).first()).error).to.equal('O arquivo não é uma planilha .xls válida.');

    const big = await campaignWith('grande.csv', Buffer.from(phones(10).join('\n')));
    await knex('stored_files').where({ workspaceId: ws.id, fileName: 'grande.csv' }).update({ size: 200 * 1024 * 1024 });
    expect(await run(big)).to.deep.equal({ status: 'finished_fail', totalNumbers: 0 });
    expect((await knex('campaigns').where({ id: big }).first()).error).to.equal('O arquivo é grande demais: o limite é 20 MB.');

    const none = await campaignWith('vazia.csv', Buffer.from('telefone\nabc\n123\n'));
    expect(await run(none)).to.deep.equal({ status: 'finished_fail', totalNumbers: 0 });
    expect(await knex('campaigns').where({ id: none }).first()).to.include({ error: 'Nenhum número válido no arquivo.' });
    expect(await numbers(none)).to.have.length(0);
  });

  it('stores 100k numbers in batch inserts (1000 rows a statement: seconds, not a statement per number)', async () => {
    const csv = Buffer.from(phones(100_000).map((p, i) => `${p};Cliente ${i}`).join('\n'));
    const id = await campaignWith('cem-mil.csv', csv);
    const statements: string[] = [];
    const onQuery = (q: { sql: string }) => void statements.push(q.sql);
    knex.on('query', onQuery);
    try {
      expect(await run(id)).to.deep.equal({ status: 'waiting_processing', totalNumbers: 100_000 });
    } finally {
      knex.off('query', onQuery);
    }
    // One INSERT per 1000 rows.
    expect(statements.filter((q) => /^insert into "campaign_numbers"/i.test(q))).to.have.length(100);
    const [{ n }] = await knex('campaign_numbers').where({ campaignId: id, status: 'pending' }).count({ n: '*' });
    expect(Number(n)).to.equal(100_000);
    // The test database is shared by the whole run: 100k rows would slow every later whole-table check (security digests).
    await knex('campaign_numbers').where({ campaignId: id }).delete();
  });
});
