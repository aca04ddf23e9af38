import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import type { TestOperator, TestWorkspace } from '../helpers/factories';
import { IMPORT_MAX_ROWS, IMPORT_TOO_MANY_ROWS } from '../../api/contacts/schema';
import { makeChannel, makeConversation, makeCustomer, makeGroup, makeLabel, makeTeam } from './rows';

interface ListBody {
  data: { id: number; name: string | null; channels: { type: string; label: string }[] }[];
  matchCount: number;
  totalCount: number;
}

describe('Contacts page: GET /api/customer and the CSV import', () => {
  let api: TestApi;
  let ws: TestWorkspace;
  let owner: TestOperator;
  let master: TestOperator;
  let agent: TestOperator;
  let stranger: TestOperator;

  const knex = () => api.deps.knex;
  const list = async (token: string, query: Record<string, string> = {}) => {
    const res = await api.request('GET', `/api/customer?${new URLSearchParams(query).toString()}`, { token });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body as ListBody;
  };
  const names = (body: ListBody) => body.data.map((c) => c.name);

  before(async () => {
    api = await startTestApi();
    ({ ws, owner, master, agent, stranger } = await makeTeam(knex(), api.config.jwtSecret));
  });
  after(() => api.close());

  describe('GET /customer', () => {
    let tag: { id: number };
    before(async () => {
      const widget = await makeChannel(knex(), ws.id, 'widget');
      const telegram = await makeChannel(knex(), ws.id, 'telegram');
      const hidden = await makeGroup(knex(), ws.id, [owner.id]);
      tag = await makeLabel(knex(), ws.id);
      const ana = await makeCustomer(knex(), ws.id, { name: 'Ana Lista', phone: '+5581988887777', email: 'ana.lista@exemplo.com.br' });
      const anaTalk = await makeConversation(knex(), ws.id, widget.id, ana.id);
      await knex()('call_labels').insert({ workspaceId: ws.id, callId: anaTalk.callId, labelId: tag.id });
      const bruno = await makeCustomer(knex(), ws.id, { name: 'Bruno Lista', phone: '+5511977776666' });
      await makeConversation(knex(), ws.id, telegram.id, bruno.id);
      const carla = await makeCustomer(knex(), ws.id, { name: 'Carla Lista', email: 'carla@exemplo.com.br' });
      await makeConversation(knex(), ws.id, telegram.id, carla.id, { groupId: hidden.id });
      await knex()('customers').where({ id: carla.id }).update({ createdAt: new Date('2026-01-10T15:00:00Z') });
      await knex()('customers').where({ id: bruno.id }).update({ createdAt: new Date('2026-01-11T02:00:00Z') });
      await makeCustomer(knex(), ws.id, { name: 'Davi Lista (sem conversa)' });
      await makeCustomer(knex(), ws.id, { name: 'João Acentuação' });
    });

    it('searches by name, e-mail and phone, the phone also as typed with a mask', async () => {
      expect(names(await list(owner.token, { query: 'ana lis' }))).to.deep.equal(['Ana Lista']);
      // Accents and case folded in names, both ways.
      for (const query of ['joao acentuacao', 'JOÃO', 'acentuação']) expect(names(await list(owner.token, { query })), query).to.deep.equal(['João Acentuação']);
      expect(names(await list(owner.token, { query: 'carla@exemplo' }))).to.deep.equal(['Carla Lista']);
      expect(names(await list(owner.token, { query: '(11) 97777-6666' }))).to.deep.equal(['Bruno Lista']);
    });

    it('filters by channel type with SPEC labels, by tag and by creation day in the workspace time zone', async () => {
      const byTelegram = await list(owner.token, { query: 'Lista', channels: 'telegram' });
      expect(names(byTelegram).sort()).to.deep.equal(['Bruno Lista', 'Carla Lista']);
      expect(byTelegram.data[0]!.channels).to.deep.equal([{ type: 'telegram', label: 'Telegram' }]);
      expect(names(await list(owner.token, { query: 'Lista', tags: String(tag.id) }))).to.deep.equal(['Ana Lista']);
      // Bruno was created at 23:00 of 10/01 in São Paulo (02:00 UTC of the 11th).
      const day = await list(owner.token, { query: 'Lista', from: '2026-01-10', to: '2026-01-10' });
      expect(names(day)).to.deep.equal(['Bruno Lista', 'Carla Lista']);
      expect(day.matchCount).to.equal(2);
    });

    it('pages 20 per page by default (SPEC §9) and counts matches apart from the total', async () => {
      const page = await list(owner.token, { query: 'Lista', limit: '1', offset: '1' });
      expect(page.data).to.have.length(1);
      expect(page.matchCount).to.equal(4);
      expect(page.totalCount).to.be.at.least(4);
    });

    it('shows an agent only contacts of conversations they may see; a contact without conversation only from level 6', async () => {
      expect(names(await list(agent.token, { query: 'Lista' })).sort()).to.deep.equal(['Ana Lista', 'Bruno Lista']);
      expect(names(await list(master.token, { query: 'Lista' })).sort()).to.deep.equal(['Ana Lista', 'Bruno Lista', 'Davi Lista (sem conversa)']);
      expect(names(await list(stranger.token, { query: 'Lista' }))).to.deep.equal([]);
    });

    it("refuses an unknown channel, another workspace's tag, a reversed period and a day PostgreSQL has no date for, with field errors", async () => {
      const foreignTag = await makeLabel(knex(), stranger.workspaceId);
      for (const [query, key] of [
        [{ channels: 'sms' }, 'channels'],
        [{ tags: String(foreignTag.id) }, 'tags'],
        [{ from: '2026-02-01', to: '2026-01-01' }, 'to'],
        // Days PostgreSQL has no date for: a 400 on the field, never a 500 from the query.
        [{ from: '2026-02-30' }, 'from'],
        [{ to: '0000-01-01' }, 'to'],
      ] as const) {
        const res = await api.request('GET', `/api/customer?${new URLSearchParams(query).toString()}`, { token: owner.token });
        expect(res.status, key).to.equal(400);
        expect(res.body.errors.map((e: { key: string }) => e.key)).to.include(key);
      }
    });
  });

  describe('POST /customer/import/preview and /customer/import', () => {
    const csv = [
      'nome;telefone;e-mail;Cidade;Plano',
      'Elisa Import;(81) 98765-4321;elisa@exemplo.com.br;Recife;Ouro',
      'Fábio Import;11 3333;;São Paulo;',
      'Gil Import;;gil@exemplo.com.br;Olinda;Prata',
      'Gil de novo;;GIL@exemplo.com.br;;',
      'Helena Import;+55 21 99876-5432;nao-e-email;;',
    ].join('\n');

    it('previews each row with its errors and the action it would take, and writes nothing', async () => {
      const before = await knex()('customers').where({ workspaceId: ws.id }).count({ n: '*' }).first();
      const res = await api.request('POST', '/api/customer/import/preview', { token: master.token, body: { content: csv } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const { columns, rows, summary } = res.body.data;
      expect(columns.map((c: { field: string }) => c.field)).to.deep.equal(['name', 'phone', 'email', 'cidade', 'plano']);
      expect(rows.map((r: { line: number; action: string }) => [r.line, r.action])).to.deep.equal([
        [2, 'create'],
        [3, 'skip'],
        [4, 'create'],
        [5, 'skip'],
        [6, 'skip'],
      ]);
      expect(rows[0]).to.deep.include({ name: 'Elisa Import', phone: '+5581987654321', email: 'elisa@exemplo.com.br' });
      expect(rows[0].properties).to.deep.equal([
        { label: 'Cidade', code: 'cidade', value: 'Recife' },
        { label: 'Plano', code: 'plano', value: 'Ouro' },
      ]);
      expect(rows[1].errors).to.deep.equal(['Telefone inválido: 11 3333']);
      expect(rows[3].errors).to.deep.equal(['Contato repetido: o mesmo e-mail está na linha 4.']);
      expect(rows[4].errors).to.deep.equal(['E-mail inválido: nao-e-email']);
      expect(summary).to.deep.equal({ create: 2, update: 0, skip: 3 });
      const after = await knex()('customers').where({ workspaceId: ws.id }).count({ n: '*' }).first();
      expect(after).to.deep.equal(before);
    });

    it('commits the valid rows, and a second import of the same phone or e-mail updates instead of creating twice', async () => {
      const first = await api.request('POST', '/api/customer/import', { token: master.token, body: { content: csv } });
      expect(first.status, JSON.stringify(first.body)).to.equal(200);
      expect(first.body.data).to.deep.equal({ create: 2, update: 0, skip: 3 });
      const elisa = await knex()('customers').where({ workspaceId: ws.id, phone: '+5581987654321' });
      expect(elisa).to.have.length(1);
      expect(elisa[0]).to.deep.include({ name: 'Elisa Import', email: 'elisa@exemplo.com.br', origin: 'agent' });
      const props = await knex()('customer_properties').where({ customerId: elisa[0].id }).orderBy('code').select('code', 'value');
      expect(props).to.deep.equal([
        { code: 'cidade', value: 'Recife' },
        { code: 'plano', value: 'Ouro' },
      ]);

      const again = ['name,phone,email,Plano', 'Elisa Nova,+5581987654321,,Diamante', 'Gil,,Gil@Exemplo.com.br,'].join('\n');
      const preview = await api.request('POST', '/api/customer/import/preview', { token: owner.token, body: { content: again } });
      expect(preview.body.data.rows.map((r: { action: string; customerId: number }) => [r.action, r.customerId])).to.deep.equal([
        ['update', Number(elisa[0].id)],
        ['update', Number((await knex()('customers').where({ workspaceId: ws.id, email: 'gil@exemplo.com.br' }).first('id')).id)],
      ]);
      const second = await api.request('POST', '/api/customer/import', { token: owner.token, body: { content: again } });
      expect(second.body.data).to.deep.equal({ create: 0, update: 2, skip: 0 });
      expect(await knex()('customers').where({ workspaceId: ws.id, phone: '+5581987654321' }).select('name')).to.deep.equal([{ name: 'Elisa Nova' }]);
      expect(await knex()('customers').where({ workspaceId: ws.id }).whereRaw("lower(email) = 'gil@exemplo.com.br'").count({ n: '*' }).first()).to.deep.include({ n: 1 });
      const plano = await knex()('customer_properties').where({ customerId: elisa[0].id, code: 'plano' }).first('value');
      expect(plano.value).to.equal('Diamante');
      // The imported contact has no conversation: level 6+ reach it on the Contacts page, an agent does not.
      expect(names(await list(master.token, { query: 'Elisa Nova' }))).to.deep.equal(['Elisa Nova']);
      expect(names(await list(agent.token, { query: 'Elisa Nova' }))).to.deep.equal([]);
    });

    it('refuses a file without a phone or e-mail column, an empty one and one over the row cap, in pt-BR', async () => {
      const cases: [string, string][] = [
        ['nome;cidade\nAna;Recife', 'O arquivo precisa de uma coluna phone (ou telefone) ou email.'],
        ['nome;telefone', 'O arquivo não tem contatos: a primeira linha traz os nomes das colunas e as seguintes, os contatos.'],
        [['phone', ...Array.from({ length: IMPORT_MAX_ROWS + 1 }, (_, i) => `+55119${String(10000000 + i)}`)].join('\n'), IMPORT_TOO_MANY_ROWS],
      ];
      for (const [content, message] of cases) {
        const res = await api.request('POST', '/api/customer/import/preview', { token: master.token, body: { content } });
        expect(res.status).to.equal(400);
        expect(res.body.errors[0]).to.deep.include({ key: 'content', descriptions: [message] });
      }
    });

    it('is refused below level 6 and never touches another workspace', async () => {
      const content = 'phone\n+5581911112222';
      for (const path of ['/api/customer/import/preview', '/api/customer/import']) {
        const res = await api.request('POST', path, { token: agent.token, body: { content } });
        expect(res.status).to.equal(403);
        expect(res.body.errors[0].descriptions).to.deep.equal(['Importar contatos é permitido a partir do nível MASTER.']);
      }
      // The same phone in another workspace is a new contact there, and ws's contact is untouched.
      const mine = await makeCustomer(knex(), ws.id, { name: 'De ws', phone: '+5581911112222' });
      const res = await api.request('POST', '/api/customer/import', { token: stranger.token, body: { content: 'name,phone\nDo outro,+5581911112222' } });
      expect(res.body.data).to.deep.equal({ create: 1, update: 0, skip: 0 });
      expect(await knex()('customers').where({ id: mine.id }).first('name')).to.deep.equal({ name: 'De ws' });
      expect(await knex()('customers').where({ workspaceId: stranger.workspaceId, phone: '+5581911112222' }).select('name')).to.deep.equal([{ name: 'Do outro' }]);
    });
  });
});
