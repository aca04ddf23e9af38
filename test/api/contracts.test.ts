import { expect } from 'chai';
import { Worker } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { createLogger } from '../../api/logger';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, unique, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { prepareWorker, type WorkerSetup } from '../channels/helpers';
import { filesOnDisk } from '../assets/helpers';
import { csvContract, importContracts, importProcessed, jsonContract, PDF, sha256, TRUNCATED_PDF, untilProcessed } from './contractsFixtures';

const MiB = 1024 * 1024;

describe('contracts API (level 6+, workspace-scoped, import processed by the contract-import workflow)', function () {
  this.timeout(120_000);
  let api: TestApi;
  let setup: WorkerSetup;
  let worker: Worker;
  let running: Promise<void>;
  let ws: TestWorkspace;
  let owner: TestOperator;

  before(async () => {
    [api, setup] = await Promise.all([startTestApi({ temporalTaskQueue: unique('contracts-api') }), prepareWorker()]);
    worker = await Worker.create({
      connection: setup.connection,
      taskQueue: api.config.temporalTaskQueue,
      workflowBundle: setup.workflowBundle,
      activities: createActivities({ knex: api.deps.knex, publisher: api.deps.publisher, logger: createLogger('silent'), config: api.config }),
    });
    running = worker.run();
  });
  after(async () => {
    worker?.shutdown();
    await running;
    await setup?.connection.close();
    await api?.close();
  });
  beforeEach(async () => {
    ws = await makeWorkspace(api.deps.knex);
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
  });

  const knex = () => api.deps.knex;
  const get = (path: string, token = owner.token) => api.request('GET', path, { token });
  const contract = (id: number) => knex()('contracts').where({ id }).first();

  describe('import', () => {
    it('stores a JSON and a CSV file, answers 201 with both Processando, then the workflow hashes (stamp = SHA-256 of the file) and parses them', async () => {
      const json = jsonContract({ nome: 'Maria da Silva', cpf: '529.982.247-25', numeroContrato: 'CT-001', valor: 15000 });
      const csv = csvContract('João Souza;111.444.777-35;CT-002;15.000,00;48;1,79;20/11/2026');
      const res = await importContracts(api, owner.token, 'consignado', [json, csv]);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.data.map((c: { status: string }) => c.status)).to.deep.equal(['created', 'created']);
      const [a, b] = res.body.data.map((c: { id: number }) => c.id) as [number, number];
      expect(await untilProcessed(knex(), [a, b])).to.deep.equal({ [a]: { id: a, status: 'processed', error: null }, [b]: { id: b, status: 'processed', error: null } });

      const first = (await get(`/api/contract/${a}`)).body.data;
      expect(first).to.include({ name: 'Maria da Silva', cpf: '52998224725', loanNumber: 'CT-001', code: 'consignado', status: 'processed', stamp: sha256(json.bytes), fileName: 'CT-001.json', path: `/api/contract/${a}/download` });
      expect(first.json).to.deep.equal({ nome: 'Maria da Silva', cpf: '529.982.247-25', numeroContrato: 'CT-001', valor: 15000 });
      const second = (await get(`/api/contract/${b}`)).body.data;
      expect(second).to.include({ name: 'João Souza', cpf: '11144477735', loanNumber: 'CT-002', stamp: sha256(csv.bytes) });
      expect(second.json).to.deep.equal({ nome: 'João Souza', cpf: '11144477735', numeroContrato: 'CT-002', valor: 15000, parcelas: 48, taxaMensal: 1.79, dataContrato: '2026-11-20' });
      // The stored files are the workspace's uploads, with the hash the stamp repeats.
      const stored = await knex()('stored_files').where({ workspaceId: ws.id }).orderBy('id').select('file_name', 'sha256');
      expect(stored).to.deep.equal([
        { fileName: 'CT-001.json', sha256: sha256(json.bytes) },
        { fileName: 'contrato.csv', sha256: sha256(csv.bytes) },
      ]);
    });

    it('fails only the file whose CPF fails its check digits, with the pt-BR reason; the other file of the import is processed', async () => {
      const res = await importContracts(api, owner.token, 'ccb', [
        jsonContract({ nome: 'Ana Lima', cpf: '529.982.247-24', numeroContrato: 'CCB-1' }),
        jsonContract({ nome: 'Rui Costa', cpf: '12345678909', numeroContrato: 'CCB-2' }),
      ]);
      expect(res.status).to.equal(201);
      const [bad, good] = res.body.data.map((c: { id: number }) => c.id) as [number, number];
      const done = await untilProcessed(knex(), [bad, good]);
      expect(done[bad]).to.include({ status: 'failed', error: 'CPF inválido: confira os dígitos.' });
      expect(done[good]).to.include({ status: 'processed' });
      // A failed file keeps its file name as name and no contract data.
      expect(await contract(bad)).to.include({ name: 'CCB-1.json', cpf: null, loanNumber: null, json: null });
    });

    it('reports every problem of a file at once (CSV layout: missing column and a bad value) and fails a broken JSON and a truncated PDF', async () => {
      const ids = await importProcessed(api, owner.token, 'consignado', [
        csvContract('Lia;52998224725;10', 'nome;cpf;parcelas'),
        csvContract('Lia;52998224725;CT-9;abc;999', 'nome;cpf;numero_contrato;valor;parcelas'),
        { name: 'quebrado.json', bytes: '{"nome": "Lia",', type: 'application/json' },
        { name: 'cortado.pdf', bytes: TRUNCATED_PDF, type: 'application/pdf' },
      ]);
      const rows = await Promise.all(ids.map(contract));
      expect(rows.map((r) => [r.status, r.error])).to.deep.equal([
        ['failed', 'Faltam colunas no cabeçalho do CSV: numero_contrato.'],
        ['failed', 'Valor inválido: use o formato 15000,00. Parcelas inválidas: informe um número inteiro de 1 a 480.'],
        ['failed', 'O arquivo não é um JSON válido.'],
        ['failed', 'O PDF está corrompido ou incompleto.'],
      ]);
    });

    it('keeps a whole PDF as a file: processed, named after the file, no JSON, stamp = SHA-256', async () => {
      const [id] = await importProcessed(api, owner.token, 'refinanciamento', [{ name: 'Contrato Rui.pdf', bytes: PDF, type: 'application/pdf' }]);
      expect(await contract(id!)).to.include({ status: 'processed', name: 'Contrato Rui', json: null, cpf: null, stamp: sha256(PDF) });
    });

    it('refuses an import without files and without a type, naming both fields, and stores nothing', async () => {
      const res = await importContracts(api, owner.token, undefined, []);
      expect(res.status).to.equal(400);
      expect(res.body.errors.map((e: { key: string; descriptions: string[] }) => [e.key, e.descriptions])).to.deep.equal([
        ['code', ['Selecione o tipo do contrato.']],
        ['files', ['Selecione ao menos um arquivo.']],
      ]);
      const unknown = await importContracts(api, owner.token, 'hipoteca', [jsonContract({ nome: 'A', cpf: '52998224725', numeroContrato: 'X' })]);
      expect(unknown.status).to.equal(400);
      expect(unknown.body.errors).to.deep.equal([{ type: 'ValidationError', title: 'Dados inválidos', key: 'code', descriptions: ['Selecione o tipo do contrato.'] }]);
      expect(await knex()('stored_files').where({ workspaceId: ws.id })).to.have.length(0);
      expect(await knex()('contracts').where({ workspaceId: ws.id })).to.have.length(0);
    });

    it('refuses the whole import when one file is a format its type does not take or an unsafe type: no stored file, no file on disk, no contract', async () => {
      const before = filesOnDisk(api);
      const wrong = await importContracts(api, owner.token, 'ccb', [
        jsonContract({ nome: 'Ana', cpf: '52998224725', numeroContrato: 'OK-1' }),
        csvContract('Ana;52998224725;OK-2'),
        { name: 'foto.png', bytes: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64'), type: 'image/png' },
        { name: 'vazio.json', bytes: '', type: 'application/json' },
      ]);
      expect(wrong.status).to.equal(400);
      expect(wrong.body.errors).to.deep.equal([
        {
          type: 'ValidationError',
          title: 'Dados inválidos',
          key: 'files',
          descriptions: [
            'contrato.csv: o tipo Cédula de Crédito Bancário (CCB) aceita arquivos JSON ou PDF.',
            'foto.png: o tipo Cédula de Crédito Bancário (CCB) aceita arquivos JSON ou PDF.',
            'vazio.json: o arquivo está vazio.',
          ],
        },
      ]);
      const html = await importContracts(api, owner.token, 'consignado', [jsonContract({ nome: 'Ana', cpf: '52998224725', numeroContrato: 'OK-3' }), { name: 'x.json', bytes: '<html><script>alert(1)</script></html>', type: 'text/html' }]);
      expect(html.status).to.equal(400);
      expect(html.body.errors[0]).to.include({ type: 'ValidationError', key: 'files' });
      expect(html.body.errors[0].descriptions).to.deep.equal(['Tipo de arquivo não permitido.']);
      expect(await knex()('stored_files').where({ workspaceId: ws.id })).to.have.length(0);
      expect(await knex()('contracts').where({ workspaceId: ws.id })).to.have.length(0);
      expect(filesOnDisk(api)).to.deep.equal(before);
    });

    it('names a missing type together with an unsafe file (every failing field at once), and stores nothing', async () => {
      const res = await importContracts(api, owner.token, undefined, [{ name: 'x.json', bytes: '<html><script>alert(1)</script></html>', type: 'text/html' }]);
      expect(res.status).to.equal(400);
      expect(res.body.errors.map((e: { key: string; descriptions: string[] }) => [e.key, e.descriptions])).to.deep.equal([
        ['files', ['Tipo de arquivo não permitido.']],
        ['code', ['Selecione o tipo do contrato.']],
      ]);
      expect(await knex()('stored_files').where({ workspaceId: ws.id })).to.have.length(0);
    });

    it('refuses a file over the 16 MB limit with 413 and writes nothing', async () => {
      const before = filesOnDisk(api);
      const big = Buffer.alloc(16 * MiB + 1, 0x20);
      big.write('{"nome":"A"}', 0);
      const res = await importContracts(api, owner.token, 'consignado', [jsonContract({ nome: 'Ana', cpf: '52998224725', numeroContrato: 'P-1' }), { name: 'grande.json', bytes: big, type: 'application/json' }]);
      expect(res.status).to.equal(413);
      expect(res.body.errors[0]).to.include({ type: 'PayloadTooLargeError' });
      expect(res.body.errors[0].descriptions).to.deep.equal(['O arquivo excede o limite de 16 MB.']);
      expect(await knex()('stored_files').where({ workspaceId: ws.id })).to.have.length(0);
      expect(await knex()('contracts').where({ workspaceId: ws.id })).to.have.length(0);
      expect(filesOnDisk(api)).to.deep.equal(before);
    });
  });

  describe('statuses', () => {
    it('a newer import of the same contract number overwrites the older one; once formalized, the number cannot be overwritten', async () => {
      const [older] = await importProcessed(api, owner.token, 'ccb', [jsonContract({ nome: 'Ana', cpf: '52998224725', numeroContrato: 'N-1' })]);
      const [newer] = await importProcessed(api, owner.token, 'ccb', [jsonContract({ nome: 'Ana Maria', cpf: '52998224725', numeroContrato: 'N-1' })]);
      expect(await contract(older!)).to.include({ status: 'overwritten', replacedById: newer });
      expect(await contract(newer!)).to.include({ status: 'processed', replacedById: null });

      const formalized = await api.request('POST', `/api/contract/${newer}/status`, { token: owner.token, body: { status: 'formalized' } });
      expect(formalized.status).to.equal(200);
      expect(formalized.body.data.status).to.equal('formalized');
      expect(Date.parse(formalized.body.data.formalized)).to.be.closeTo(Date.now(), 60_000);

      const [third] = await importProcessed(api, owner.token, 'ccb', [jsonContract({ nome: 'Ana', cpf: '52998224725', numeroContrato: 'N-1' })]);
      expect(await contract(third!)).to.include({ status: 'failed', error: 'O contrato N-1 já foi formalizado e não pode ser substituído.' });
      expect(await contract(newer!)).to.include({ status: 'formalized' });
      // The same number in another workspace is another contract.
      const otherWs = await makeWorkspace(knex());
      const other = await makeOperator(knex(), api.config.jwtSecret, otherWs, 6);
      const [theirs] = await importProcessed(api, other.token, 'ccb', [jsonContract({ nome: 'Ana', cpf: '52998224725', numeroContrato: 'N-1' })]);
      expect(await contract(theirs!)).to.include({ status: 'processed' });
    });

    it('only a contract waiting for formalization is formalized or rejected; a formalized contract cannot be deleted, another one goes with its file', async () => {
      const [a, b, c] = await importProcessed(api, owner.token, 'consignado', [
        jsonContract({ nome: 'A', cpf: '52998224725', numeroContrato: 'S-1' }),
        jsonContract({ nome: 'B', cpf: '11144477735', numeroContrato: 'S-2' }),
        { name: 'x.json', bytes: '[]', type: 'application/json' },
      ]);
      const decide = (id: number, status: string) => api.request('POST', `/api/contract/${id}/status`, { token: owner.token, body: { status } });
      expect((await decide(a!, 'formalized')).status).to.equal(200);
      expect((await decide(b!, 'rejected')).body.data).to.include({ status: 'rejected', formalized: null });
      const again = await decide(a!, 'rejected');
      expect(again.status).to.equal(409);
      expect(again.body.errors[0].descriptions).to.deep.equal(['Só um contrato aguardando formalização pode ser formalizado ou recusado.']);
      expect((await decide(c!, 'formalized')).status).to.equal(409);
      const bad = await decide(b!, 'processed');
      expect(bad.status).to.equal(400);
      expect(bad.body.errors[0]).to.include({ key: 'status' });

      const kept = await api.request('DELETE', `/api/contract/${a}`, { token: owner.token });
      expect(kept.status).to.equal(409);
      expect(kept.body.errors).to.deep.equal([{ type: 'ConflictError', title: 'Conflito', descriptions: ['Um contrato formalizado não pode ser excluído.'] }]);
      expect(await contract(a!)).to.include({ status: 'formalized' });

      const key = (await contract(b!)).path as string;
      const gone = await api.request('DELETE', `/api/contract/${b}`, { token: owner.token });
      expect(gone.status).to.equal(200);
      expect(await contract(b!)).to.equal(undefined);
      expect(await knex()('stored_files').where({ key })).to.have.length(0);
      expect(filesOnDisk(api).some((f) => f.includes(key))).to.equal(false);
      expect((await get(`/api/contract/${b}`)).status).to.equal(404);
    });

    it('edits the type of a contract with JSON (PUT and the save POST {id, code}); refuses it without JSON and for an unknown type', async () => {
      const [withJson, pdf] = await importProcessed(api, owner.token, 'consignado', [jsonContract({ nome: 'A', cpf: '52998224725', numeroContrato: 'T-1' }), { name: 'c.pdf', bytes: PDF, type: 'application/pdf' }]);
      const put = await api.request('PUT', `/api/contract/${withJson}`, { token: owner.token, body: { code: 'ccb' } });
      expect(put.status).to.equal(200);
      expect(put.body.data).to.include({ id: withJson, code: 'ccb' });
      const save = await api.request('POST', '/api/contract', { token: owner.token, body: { id: withJson, code: 'refinanciamento' } });
      expect(save.body.data).to.include({ code: 'refinanciamento' });
      expect(await contract(withJson!)).to.include({ code: 'refinanciamento' });

      const noJson = await api.request('PUT', `/api/contract/${pdf}`, { token: owner.token, body: { code: 'ccb' } });
      expect(noJson.status).to.equal(409);
      expect(noJson.body.errors[0]).to.include({ key: 'code' });
      expect(noJson.body.errors[0].descriptions).to.deep.equal(['Este contrato não tem JSON: o tipo só pode ser alterado em contratos com dados.']);
      const unknown = await api.request('PUT', `/api/contract/${withJson}`, { token: owner.token, body: { code: 'hipoteca' } });
      expect(unknown.status).to.equal(400);
      expect(unknown.body.errors[0]).to.include({ key: 'code' });
      expect(await contract(pdf!)).to.include({ code: 'consignado' });
    });
  });

  describe('list', () => {
    it('searches by name, masked CPF and contract number; tabs filter by status; the period filters by import day; both list dialects', async () => {
      const [ana, rui, pdf] = await importProcessed(api, owner.token, 'consignado', [
        jsonContract({ nome: 'Ana Lima', cpf: '52998224725', numeroContrato: 'L-100' }),
        jsonContract({ nome: 'Rui Costa', cpf: '11144477735', numeroContrato: 'L-200' }),
        { name: 'termo.pdf', bytes: PDF, type: 'application/pdf' },
      ]);
      await api.request('POST', `/api/contract/${rui}/status`, { token: owner.token, body: { status: 'formalized' } });
      // An older contract, imported last month.
      const [old] = await knex()('contracts').insert({ workspaceId: ws.id, name: 'Antigo', code: 'ccb', status: 'processed', createdAt: new Date('2026-01-15T12:00:00Z') }).returning('id');
      const names = async (query: string) => ((await get(`/api/contract?${query}`)).body.data as { name: string }[]).map((c) => c.name);

      const all = (await get('/api/contract')).body;
      expect(all.data.map((c: { id: number }) => c.id)).to.deep.equal([pdf, rui, ana, old.id]);
      expect(all).to.include({ matchCount: 4, totalCount: 4 });
      expect(await names('query=lima')).to.deep.equal(['Ana Lima']);
      expect(await names(`query=${encodeURIComponent('111.444.777-35')}`)).to.deep.equal(['Rui Costa']);
      expect(await names('query=L-100')).to.deep.equal(['Ana Lima']);
      // Tabs: Pendentes (processed), Concluídos (formalized).
      expect(await names('status=processed')).to.deep.equal(['termo', 'Ana Lima', 'Antigo']);
      expect(await names('status=formalized')).to.deep.equal(['Rui Costa']);
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
      expect(await names(`from=2026-01-01&to=2026-01-31`)).to.deep.equal(['Antigo']);
      expect(await names(`from=${today}&status=processed`)).to.deep.equal(['termo', 'Ana Lima']);
      const page = (await get('/api/contract?limit=2&offset=1')).body;
      expect(page.data.map((c: { id: number }) => c.id)).to.deep.equal([rui, ana]);
      expect(page).to.include({ matchCount: 4, totalCount: 4 });
      const badPeriod = await get('/api/contract?from=2026-02-01&to=2026-01-01');
      expect(badPeriod.status).to.equal(400);
      expect(badPeriod.body.errors[0]).to.include({ key: 'to' });
      expect((await get('/api/contract?status=signed')).status).to.equal(400);

      // react-admin's simple-rest dialect: bare array and Content-Range.
      const ra = await get(`/api/contract?${new URLSearchParams({ sort: JSON.stringify(['name', 'ASC']), range: JSON.stringify([0, 0]), filter: JSON.stringify({ status: 'processed', q: 'a' }) })}`);
      expect(ra.status).to.equal(200);
      expect(ra.body.map((c: { name: string }) => c.name)).to.deep.equal(['Ana Lima']);
      expect(ra.headers.get('content-range')).to.equal('contract 0-0/2');
    });

    it('refuses a period day PostgreSQL has no date for (30 February, year 0) with 400 on that field, never 500', async () => {
      for (const [query, key] of [
        ['from=2026-02-30', 'from'],
        ['to=2026-04-31', 'to'],
        ['from=0000-01-01', 'from'],
      ] as const) {
        const res = await get(`/api/contract?${query}`);
        expect(res.status, `${query}: ${JSON.stringify(res.body)}`).to.equal(400);
        expect(res.body.errors[0]).to.include({ type: 'ValidationError', key });
      }
    });
  });

  describe('access', () => {
    it("answers 404 for another workspace's contract on every route, and changes nothing", async () => {
      const [id] = await importProcessed(api, owner.token, 'consignado', [jsonContract({ nome: 'A', cpf: '52998224725', numeroContrato: 'W-1' })]);
      const otherWs = await makeWorkspace(knex());
      const stranger = await makeOperator(knex(), api.config.jwtSecret, otherWs, 10);
      const calls: [string, string, unknown?][] = [
        ['GET', `/api/contract/${id}`],
        ['PUT', `/api/contract/${id}`, { code: 'ccb' }],
        ['POST', '/api/contract', { id, code: 'ccb' }],
        ['POST', `/api/contract/${id}/status`, { status: 'formalized' }],
        ['POST', `/api/contract/${id}/link`],
        ['GET', `/api/contract/${id}/download`],
        ['DELETE', `/api/contract/${id}`],
      ];
      for (const [method, path, body] of calls) {
        const res = await api.request(method, path, { token: stranger.token, ...(body ? { body } : {}) });
        expect(res.status, `${method} ${path}`).to.equal(404);
        expect(res.body.errors[0].type).to.equal('NotFoundError');
      }
      expect((await get('/api/contract', stranger.token)).body).to.include({ matchCount: 0, totalCount: 0 });
      expect(await contract(id!)).to.include({ status: 'processed', code: 'consignado' });
      // Their signed link does not open our contract either.
      const [mine] = await importProcessed(api, stranger.token, 'consignado', [jsonContract({ nome: 'B', cpf: '52998224725', numeroContrato: 'W-2' })]);
      const link = (await api.request('POST', `/api/contract/${mine}/link`, { token: stranger.token })).body.data.url as string;
      const swapped = await fetch(`${api.url}${link.replace(`/contract/${mine}/`, `/contract/${id}/`)}`);
      expect(swapped.status).to.equal(401);
    });

    it('refuses levels below 6 (403) on every route, before reading an upload; level 6 is allowed', async () => {
      const [id] = await importProcessed(api, owner.token, 'consignado', [jsonContract({ nome: 'A', cpf: '52998224725', numeroContrato: 'A-1' })]);
      for (const level of [3, 2] as const) {
        const op = await makeOperator(knex(), api.config.jwtSecret, ws, level);
        for (const [method, path, body] of [
          ['GET', '/api/contract'],
          ['GET', `/api/contract/${id}`],
          ['PUT', `/api/contract/${id}`, { code: 'ccb' }],
          ['POST', `/api/contract/${id}/status`, { status: 'formalized' }],
          ['POST', `/api/contract/${id}/link`],
          ['GET', `/api/contract/${id}/download`],
          ['DELETE', `/api/contract/${id}`],
        ] as [string, string, unknown?][]) {
          const res = await api.request(method, path, { token: op.token, ...(body ? { body } : {}) });
          expect(res.status, `level ${level} ${method} ${path}`).to.equal(403);
        }
        const upload = await importContracts(api, op.token, 'consignado', [jsonContract({ nome: 'A', cpf: '52998224725', numeroContrato: 'A-2' })]);
        expect(upload.status).to.equal(403);
      }
      expect(await knex()('contracts').where({ workspaceId: ws.id })).to.have.length(1);
      expect(await knex()('stored_files').where({ workspaceId: ws.id })).to.have.length(1);
      const master = await makeOperator(knex(), api.config.jwtSecret, ws, 6);
      expect((await get('/api/contract', master.token)).body.matchCount).to.equal(1);
    });

    it('downloads the stored bytes with a bearer or the signed link (attachment, nosniff); a tampered or expired link is refused', async () => {
      const file = jsonContract({ nome: 'A', cpf: '52998224725', numeroContrato: 'D-1' });
      const [id] = await importProcessed(api, owner.token, 'consignado', [file]);
      const direct = await fetch(`${api.url}/api/contract/${id}/download`, { headers: { Authorization: `Bearer ${owner.token}` } });
      expect(direct.status).to.equal(200);
      expect(Buffer.from(await direct.arrayBuffer()).toString()).to.equal(file.bytes);
      const link = await api.request('POST', `/api/contract/${id}/link`, { token: owner.token });
      const url = link.body.data.url as string;
      expect(url).to.match(new RegExp(`^/api/contract/${id}/download\\?authorization=${ws.id}\\.\\d+\\.`));
      const signed = await fetch(`${api.url}${url}`);
      expect(signed.status).to.equal(200);
      expect(signed.headers.get('content-disposition')).to.match(/^attachment; filename="D-1.json"/);
      expect(signed.headers.get('x-content-type-options')).to.equal('nosniff');
      expect(Buffer.from(await signed.arrayBuffer()).toString()).to.equal(file.bytes);
      const tampered = await fetch(`${api.url}${url.slice(0, -2)}xx`);
      expect(tampered.status).to.equal(401);
      const expired = `${ws.id}.${Math.floor(Date.now() / 1000) - 10}.${'A'.repeat(43)}`;
      expect((await fetch(`${api.url}/api/contract/${id}/download?authorization=${expired}`)).status).to.equal(401);
    });
  });
});
