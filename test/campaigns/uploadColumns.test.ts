import { expect } from 'chai';
import ExcelJS from 'exceljs';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { PNG_1x1 } from '../assets/helpers';

/** POST /api/campaign/numbers-file: the campaign wizard's numbers file with its column headers and first row (docs/campaigns-ui.md). */
describe('campaigns: the wizard\'s numbers file upload answers its column headers and first row', () => {
  let api: TestApi;
  let owner: TestOperator;
  let ws: TestWorkspace;

  before(async () => {
    api = await startTestApi();
    ws = await makeWorkspace(api.deps.knex);
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
  });
  after(() => api.close());

  async function post(path: string, name: string, bytes: Buffer | string, token = owner.token) {
    const form = new FormData();
    form.append('file0', new Blob([bytes]), name);
    const res = await fetch(`${api.url}${path}`, { method: 'POST', body: form, headers: { Authorization: `Bearer ${token}` } });
    return { status: res.status, body: (await res.json()) as { data: Record<string, unknown>; errors?: { type: string; key?: string; descriptions: string[] }[] } };
  }
  const upload = (name: string, bytes: Buffer | string) => post('/api/campaign/numbers-file', name, bytes);

  it('reads a CSV header and first data row (the phone column left out)', async () => {
    const res = await upload('clientes.csv', '\ufefftelefone,nome,pedido\n5511912345678,Ana Souza,#1042\n5511987654321,Bruno,#1043\n');
    expect(res.status).to.equal(201);
    expect(res.body.data).to.include({ fileName: 'clientes.csv' });
    expect(res.body.data!.columns).to.deep.equal({ headers: ['nome', 'pedido'], firstRow: ['Ana Souza', '#1042'] });
  });

  it('reads an .xlsx the way the campaign reads it, and a .txt without header (headers null)', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Planilha1');
    sheet.addRow(['Telefone', 'Cliente', 'Cidade']);
    sheet.addRow([5511912345678, 'Carla', 'Recife']);
    const xlsx = Buffer.from(await book.xlsx.writeBuffer());
    const sheetRes = await upload('lista.xlsx', xlsx);
    expect(sheetRes.status).to.equal(201);
    expect(sheetRes.body.data!.columns).to.deep.equal({ headers: ['Cliente', 'Cidade'], firstRow: ['Carla', 'Recife'] });

    const txt = await upload('numeros.txt', '5511912345678;Davi\n5511987654321;Eva\n');
    expect(txt.body.data!.columns).to.deep.equal({ headers: null, firstRow: ['Davi'] });
  });

  it('answers columns null for a file that is no numbers file, and a plain upload carries no columns', async () => {
    const image = await upload('foto.png', PNG_1x1);
    expect(image.status).to.equal(201);
    expect(image.body.data).to.include({ fileName: 'foto.png', columns: null });
    const plain = await post('/api/assets/upload', 'clientes.csv', 'telefone,nome\n5511912345678,Ana\n');
    expect(plain.status).to.equal(201);
    expect((plain.body.data as unknown as Record<string, unknown>[])[0]).to.not.have.property('columns');
  });

  it('is for level 6 and up, like campaigns', async () => {
    const agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
    expect((await post('/api/campaign/numbers-file', 'clientes.csv', 'telefone,nome\n', agent.token)).status).to.equal(403);
  });
});
