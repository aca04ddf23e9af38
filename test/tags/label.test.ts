import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator } from '../helpers/factories';

describe('tags resource /api/label (generic list/save/delete/sort)', () => {
  let api: TestApi;
  let owner: TestOperator;
  let agent: TestOperator;
  let stranger: TestOperator;

  before(async () => {
    api = await startTestApi();
    const ws = await makeWorkspace(api.deps.knex);
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
    agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 2);
    const other = await makeWorkspace(api.deps.knex);
    stranger = await makeOperator(api.deps.knex, api.config.jwtSecret, other, 10);
  });
  after(() => api.close());

  const tag = (name: string) => ({ name, color: '#D1FADF', textColor: '#027A48' });

  it('creates, lists in both dialects, updates, sorts and deletes a tag', async () => {
    const a = await api.request('POST', '/api/label', { token: agent.token, body: tag('Vip') });
    expect(a.status).to.equal(201);
    expect(a.body.data).to.include({ name: 'Vip', color: '#D1FADF' });
    const b = await api.request('POST', '/api/label', { token: agent.token, body: tag('Reclamação') });

    const spec = await api.request('GET', '/api/label?limit=1&offset=0', { token: owner.token });
    expect(spec.body.matchCount).to.equal(2);
    expect(spec.body.totalCount).to.equal(2);
    expect(spec.body.data).to.have.length(1);

    const search = await api.request('GET', '/api/label?query=recl', { token: owner.token });
    expect(search.body.data.map((t: { name: string }) => t.name)).to.deep.equal(['Reclamação']);

    const ra = await api.request('GET', `/api/label?sort=${encodeURIComponent('["name","DESC"]')}&range=${encodeURIComponent('[0,0]')}&filter=%7B%7D`, { token: owner.token });
    expect(ra.body).to.be.an('array').with.length(1);
    expect(ra.body[0].name).to.equal('Vip');
    expect(ra.headers.get('content-range')).to.equal('label 0-0/2');

    const upd = await api.request('PUT', `/api/label/${a.body.data.id}`, { token: owner.token, body: { ...a.body.data, name: 'VIP' } });
    expect(upd.status).to.equal(200);
    expect(upd.body.data.name).to.equal('VIP');

    const sorted = await api.request('PATCH', '/api/label/sort', { token: owner.token, body: { ids: [b.body.data.id, a.body.data.id] } });
    expect(sorted.status).to.equal(200);
    const after = await api.request('GET', '/api/label', { token: owner.token });
    expect(after.body.data.map((t: { id: number }) => t.id)).to.deep.equal([b.body.data.id, a.body.data.id]);

    const del = await api.request('DELETE', `/api/label/${a.body.data.id}`, { token: owner.token });
    expect(del.status).to.equal(200);
    const gone = await api.request('GET', `/api/label/${a.body.data.id}`, { token: owner.token });
    expect(gone.status).to.equal(404);
  });

  it('reports every failing field at once with pt-BR messages', async () => {
    const res = await api.request('POST', '/api/label', { token: owner.token, body: { name: '', color: 'red' } });
    expect(res.status).to.equal(400);
    const keys = res.body.errors.map((e: { key: string }) => e.key).sort();
    expect(keys).to.deep.equal(['color', 'name', 'textColor']);
    expect(res.body.errors.find((e: { key: string }) => e.key === 'name').descriptions).to.include('O nome da etiqueta é obrigatório.');
    expect(res.body.errors[0].type).to.equal('ValidationError');
  });

  it('never writes workspaceId or other unknown fields sent by the client', async () => {
    const res = await api.request('POST', '/api/label', { token: owner.token, body: { ...tag('Intrusa'), workspaceId: stranger.workspaceId } });
    expect(res.status).to.equal(201);
    const row = await api.deps.knex('labels').where({ id: res.body.data.id }).first();
    expect(row.workspaceId).to.equal(owner.workspaceId);
  });

  it("answers 404 for another workspace's tag and changes nothing", async () => {
    const mine = await api.request('POST', '/api/label', { token: owner.token, body: tag('Minha') });
    const id = mine.body.data.id;
    for (const [method, body] of [['GET', undefined], ['PUT', { name: 'x' }], ['DELETE', undefined]] as const) {
      const res = await api.request(method, `/api/label/${id}`, { token: stranger.token, body });
      expect(res.status, method).to.equal(404);
      expect(res.body.errors[0].type).to.equal('NotFoundError');
    }
    const sort = await api.request('PATCH', '/api/label/sort', { token: stranger.token, body: { ids: [id] } });
    expect(sort.status).to.equal(404);
    const row = await api.deps.knex('labels').where({ id }).first();
    expect(row.name).to.equal('Minha');
  });

  it('rejects malformed JSON with a 400 in the error shape', async () => {
    const res = await api.request('POST', '/api/label', { token: owner.token, rawBody: '{"name": ' });
    expect(res.status).to.equal(400);
    expect(res.body.errors[0].type).to.equal('ValidationError');
  });

  it('requires a valid token', async () => {
    expect((await api.request('GET', '/api/label')).status).to.equal(401);
    expect((await api.request('GET', '/api/label', { token: owner.token + 'x' })).status).to.equal(401);
  });

  it('rejects bad list parameters with field errors instead of failing', async () => {
    const res = await api.request('GET', `/api/label?sort=${encodeURIComponent('["password","ASC"]')}`, { token: owner.token });
    expect(res.status).to.equal(400);
    expect(res.body.errors[0].key).to.equal('sort');
    const bad = await api.request('GET', '/api/label?range=nope', { token: owner.token });
    expect(bad.status).to.equal(400);
  });
});
