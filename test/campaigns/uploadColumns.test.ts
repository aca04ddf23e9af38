import { expect } from 'chai';
import ExcelJS from 'exceljs';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator } from '../helpers/factories';
import { PNG_1x1 } from '../assets/helpers';

/** POST /api/assets/upload?columns=1: the campaign wizard's column headers and first row (docs/campaigns-ui.md). */
describe('files: a numbers file uploaded with ?columns=1 answers its column headers and first row', () => {
  let api: TestApi;
  let owner: TestOperator;

  before(async () => {
    api = await startTestApi();
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, await makeWorkspace(api.deps.knex), 10);
  });
  after(() => api.close());

  async function upload(query: string, name: string, bytes: Buffer | string) {
    const form = new FormData();
    form.append('file0', new Blob([bytes]), name);
    const res = await fetch(`${api.url}/api/assets/upload${query}`, { method: 'POST', body: form, headers: { Authorization: `Bearer ${owner.token}` } });
    return { status: res.status, body: (await res.json()) as { data: Record<string, unknown>[]; errors?: { type: string; key?: string; descriptions: string[] }[] } };
  }

  it('reads a CSV header and first data row (the phone column left out)', async () => {
    const res = await upload('?columns=1', 'clientes.csv', '\ufefftelefone,nome,pedido\n5511912345678,Ana Souza,#1042\n5511987654321,Bruno,#1043\n');
    expect(res.status).to.equal(201);
    expect(res.body.data[0]).to.include({ fileName: 'clientes.csv' });
    expect(res.body.data[0]!.columns).to.deep.equal({ headers: ['nome', 'pedido'], firstRow: ['Ana Souza', '#1042'] });
  });

  it('reads an .xlsx the way the campaign reads it, and a .txt without header (headers null)', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Planilha1');
    sheet.addRow(['Telefone', 'Cliente', 'Cidade']);
    sheet.addRow([5511912345678, 'Carla', 'Recife']);
    const xlsx = Buffer.from(await book.xlsx.writeBuffer());
    const sheetRes = await upload('?columns=1', 'lista.xlsx', xlsx);
    expect(sheetRes.status).to.equal(201);
    expect(sheetRes.body.data[0]!.columns).to.deep.equal({ headers: ['Cliente', 'Cidade'], firstRow: ['Carla', 'Recife'] });

    const txt = await upload('?columns=1', 'numeros.txt', '5511912345678;Davi\n5511987654321;Eva\n');
    expect(txt.body.data[0]!.columns).to.deep.equal({ headers: null, firstRow: ['Davi'] });
  });

  it('adds nothing without ?columns=1 or for a file that is no numbers file, and refuses another value in the error shape', async () => {
    const plain = await upload('', 'clientes.csv', 'telefone,nome\n5511912345678,Ana\n');
    expect(plain.status).to.equal(201);
    expect(plain.body.data[0]).to.not.have.property('columns');
    const image = await upload('?columns=1', 'foto.png', PNG_1x1);
    expect(image.status).to.equal(201);
    expect(image.body.data[0]).to.not.have.property('columns');
    const bad = await upload('?columns=sim', 'clientes.csv', 'telefone,nome\n');
    expect(bad.status).to.equal(400);
    expect(bad.body.errors![0]).to.include({ type: 'ValidationError', key: 'columns' });
  });
});
