import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, unique, type TestOperator } from '../helpers/factories';
import { makeChannel, makeConversation, makeCustomer } from '../customers/rows';

const enc = encodeURIComponent;

describe('groups resource /api/group', () => {
  let api: TestApi;
  let master: TestOperator;
  let agent: TestOperator;
  let restricted: TestOperator;
  let stranger: TestOperator;

  before(async () => {
    api = await startTestApi();
    const ws = await makeWorkspace(api.deps.knex);
    master = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 6);
    agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
    restricted = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 2);
    stranger = await makeOperator(api.deps.knex, api.config.jwtSecret, await makeWorkspace(api.deps.knex), 10);
  });
  after(() => api.close());

  const create = (body: Record<string, unknown>, token = master.token) => api.request('POST', '/api/group', { token, body });
  const storedMembers = async (groupId: number) =>
    (await api.deps.knex('group_members').where({ groupId }).orderBy('operator_id').select('operatorId')).map((r: { operatorId: number }) => r.operatorId);

  it('creates a group with its members and answers members as operator ids', async () => {
    const res = await create({ name: unique('Suporte'), description: 'Primeiro nível', icon: '#1570EF', members: [agent.id, restricted.id, agent.id] });
    expect(res.status).to.equal(201);
    expect(res.body.data).to.include({ description: 'Primeiro nível', icon: '#1570EF' });
    expect(res.body.data.members).to.deep.equal([agent.id, restricted.id].sort((a, b) => a - b));
    expect(await storedMembers(res.body.data.id)).to.deep.equal(res.body.data.members);
    const got = await api.request('GET', `/api/group/${res.body.data.id}`, { token: restricted.token });
    expect(got.body.data.members).to.deep.equal(res.body.data.members);
  });

  it('replaces the member set on update and keeps it when members are not sent', async () => {
    const g = await create({ name: unique('Vendas'), members: [agent.id, restricted.id] });
    const id = g.body.data.id;
    const upd = await api.request('PUT', `/api/group/${id}`, { token: master.token, body: { ...g.body.data, members: [master.id] } });
    expect(upd.status).to.equal(200);
    expect(upd.body.data.members).to.deep.equal([master.id]);
    expect(await storedMembers(id)).to.deep.equal([master.id]);

    const renamed = await api.request('POST', '/api/group', { token: master.token, body: { id, name: 'Vendas B2B' } });
    expect(renamed.status).to.equal(200);
    expect(renamed.body.data).to.include({ name: 'Vendas B2B' });
    expect(renamed.body.data.members).to.deep.equal([master.id]);

    const emptied = await api.request('PUT', `/api/group/${id}`, { token: master.token, body: { members: [] } });
    expect(emptied.body.data.members).to.deep.equal([]);
    expect(await storedMembers(id)).to.deep.equal([]);
  });

  it('rejects members outside the workspace with a field error on members and writes nothing', async () => {
    const name = unique('Intrusos');
    const res = await create({ name, members: [agent.id, stranger.id] });
    expect(res.status).to.equal(400);
    expect(res.body.errors.map((e: { key: string }) => e.key)).to.deep.equal(['members']);
    expect(await api.deps.knex('groups').where({ name }).first()).to.equal(undefined);

    const g = await create({ name: unique('Fechado'), members: [agent.id] });
    const upd = await api.request('PUT', `/api/group/${g.body.data.id}`, { token: master.token, body: { name: 'Trocado', members: [stranger.id] } });
    expect(upd.status).to.equal(400);
    expect(upd.body.errors[0].key).to.equal('members');
    expect(await storedMembers(g.body.data.id)).to.deep.equal([agent.id]);
    expect((await api.deps.knex('groups').where({ id: g.body.data.id }).first()).name).to.not.equal('Trocado');
  });

  it('validates name, description and icon with pt-BR messages, all at once', async () => {
    const res = await create({ name: ' ', description: 'x'.repeat(501), icon: 'azul', members: ['a'] });
    expect(res.status).to.equal(400);
    const keys = res.body.errors.map((e: { key: string }) => e.key).sort();
    expect(keys).to.deep.equal(['description', 'icon', 'members.0', 'name']);
    expect(res.body.errors.find((e: { key: string }) => e.key === 'name').descriptions).to.include('O nome do grupo é obrigatório.');
    const long = await create({ name: 'x'.repeat(81) });
    expect(long.status).to.equal(400);
    expect(long.body.errors[0].key).to.equal('name');
  });

  it('lists in both dialects with search', async () => {
    const ws = await makeWorkspace(api.deps.knex);
    const owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
    await create({ name: 'Financeiro', members: [owner.id] }, owner.token);
    await create({ name: 'Atendimento', description: 'Dúvidas gerais' }, owner.token);

    const spec = await api.request('GET', '/api/group?limit=200', { token: owner.token });
    expect(spec.status).to.equal(200);
    expect(spec.body).to.include({ matchCount: 2, totalCount: 2 });
    expect(spec.body.data.find((g: { name: string }) => g.name === 'Financeiro').members).to.deep.equal([owner.id]);

    const search = await api.request('GET', '/api/group?query=gerais', { token: owner.token });
    expect(search.body.data.map((g: { name: string }) => g.name)).to.deep.equal(['Atendimento']);
    expect(search.body).to.include({ matchCount: 1, totalCount: 2 });

    const ra = await api.request('GET', `/api/group?sort=${enc('["name","ASC"]')}&range=${enc('[0,0]')}&filter=${enc('{"q":"a"}')}`, { token: owner.token });
    expect(ra.body).to.be.an('array').with.length(1);
    expect(ra.body[0].name).to.equal('Atendimento');
    expect(ra.body[0].members).to.deep.equal([]);
    expect(ra.headers.get('content-range')).to.equal('group 0-0/2');
  });

  it('lets level 3 and 2 read groups but not write them (403)', async () => {
    const g = await create({ name: unique('Leitura'), members: [agent.id] });
    const id = g.body.data.id;
    for (const op of [agent, restricted]) {
      expect((await api.request('GET', '/api/group?limit=200', { token: op.token })).status).to.equal(200);
      expect((await api.request('GET', `/api/group/${id}`, { token: op.token })).status).to.equal(200);
      expect((await create({ name: unique('Proibido') }, op.token)).status).to.equal(403);
      expect((await api.request('PUT', `/api/group/${id}`, { token: op.token, body: { name: 'x' } })).status).to.equal(403);
      expect((await api.request('DELETE', `/api/group/${id}`, { token: op.token })).status).to.equal(403);
      expect((await api.request('PATCH', '/api/group/sort', { token: op.token, body: { ids: [id] } })).status).to.equal(403);
    }
    expect(await storedMembers(id)).to.deep.equal([agent.id]);
  });

  it("answers 404 for another workspace's group and changes nothing", async () => {
    const name = unique('Meu');
    const g = await create({ name, members: [agent.id] });
    const id = g.body.data.id;
    for (const [method, body] of [['GET', undefined], ['PUT', { name: 'x', members: [] }], ['DELETE', undefined]] as const) {
      const res = await api.request(method, `/api/group/${id}`, { token: stranger.token, body });
      expect(res.status, method).to.equal(404);
      expect(res.body.errors[0].type).to.equal('NotFoundError');
    }
    expect((await api.request('POST', '/api/group', { token: stranger.token, body: { id, name: 'x' } })).status).to.equal(404);
    expect((await api.request('GET', '/api/group?limit=200', { token: stranger.token })).body.data.map((r: { id: number }) => r.id)).to.not.include(id);
    expect((await api.deps.knex('groups').where({ id }).first()).name).to.equal(name);
    expect(await storedMembers(id)).to.deep.equal([agent.id]);
  });

  it('deleting a group takes it off its conversations and drops its member rows', async () => {
    const g = await create({ name: unique('Temporário'), members: [agent.id] });
    const id = g.body.data.id;
    const channel = await makeChannel(api.deps.knex, master.workspaceId);
    const customer = await makeCustomer(api.deps.knex, master.workspaceId);
    const conv = await makeConversation(api.deps.knex, master.workspaceId, channel.id, customer.id, { groupId: id });

    const del = await api.request('DELETE', `/api/group/${id}`, { token: master.token });
    expect(del.status).to.equal(200);
    expect(del.body.data.members).to.deep.equal([agent.id]);
    expect((await api.deps.knex('customer_platforms').where({ id: conv.id }).first()).groupId).to.equal(null);
    expect(await storedMembers(id)).to.deep.equal([]);
    expect((await api.request('GET', `/api/group/${id}`, { token: master.token })).status).to.equal(404);
  });

  it('answers a duplicate name (case-insensitive) with a 409 on name', async () => {
    const name = unique('Duplicado');
    await create({ name });
    const res = await create({ name: name.toUpperCase() });
    expect(res.status).to.equal(409);
    expect(res.body.errors[0].key).to.equal('name');
  });
});
