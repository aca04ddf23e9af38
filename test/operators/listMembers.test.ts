import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, unique, type TestOperator } from '../helpers/factories';
import { makeGroup } from '../customers/rows';

const enc = encodeURIComponent;
type Item = { id: number; name: string; email: string; accessLevel: number; isActive: boolean; groups: number[] };

describe('members list GET /api/operator', () => {
  let api: TestApi;
  let owner: TestOperator;
  let agent: TestOperator;
  let restricted: TestOperator;
  let inactive: TestOperator;
  let stranger: TestOperator;
  let groupA: number;
  let groupB: number;

  before(async () => {
    api = await startTestApi();
    const k = api.deps.knex;
    const s = api.config.jwtSecret;
    const ws = await makeWorkspace(k);
    owner = await makeOperator(k, s, ws, 10, { name: 'Ana Dona', email: `${unique('ana')}@loja.com.br` });
    agent = await makeOperator(k, s, ws, 3, { name: 'Bruno Agente', email: `${unique('bruno')}@loja.com.br` });
    restricted = await makeOperator(k, s, ws, 2, { name: 'Carla Restrita', email: `${unique('carla')}@outra.com.br` });
    inactive = await makeOperator(k, s, ws, 3, { name: 'Davi Inativo', isActive: false });
    const other = await makeWorkspace(k);
    stranger = await makeOperator(k, s, other, 10, { name: 'Estranho Bruno' });
    groupA = (await makeGroup(k, ws.id, [agent.id, restricted.id])).id;
    groupB = (await makeGroup(k, ws.id, [agent.id])).id;
    await makeGroup(k, other.id, [stranger.id]);
    await k('workspace_members').where({ workspaceId: ws.id, operatorId: agent.id }).update({ isOnline: true });
  });
  after(() => api.close());

  const get = (path: string, token = owner.token) => api.request('GET', path, { token });

  it('lists only the workspace members, by name, with the agent shape and their groups', async () => {
    const res = await get('/api/operator?limit=200');
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ matchCount: 4, totalCount: 4 });
    expect(res.body.data.map((m: Item) => m.name)).to.deep.equal(['Ana Dona', 'Bruno Agente', 'Carla Restrita', 'Davi Inativo']);
    const bruno = res.body.data[1];
    expect(bruno).to.have.all.keys('id', 'name', 'email', 'phone', 'avatar', 'accessLevel', 'isActive', 'verificationLevel', 'isOnline', 'availability', 'groups');
    expect(bruno).to.include({ id: agent.id, accessLevel: 3, isActive: true, isOnline: true, verificationLevel: 2 });
    expect(bruno.groups).to.deep.equal([groupA, groupB].sort((a, b) => a - b));
    expect(res.body.data[0].groups).to.deep.equal([]);
    expect(res.body.data.map((m: Item) => m.id)).to.not.include(stranger.id);
  });

  it('speaks the simple-rest dialect with sort, range and Content-Range', async () => {
    const res = await get(`/api/operator?sort=${enc('["email","DESC"]')}&range=${enc('[0,1]')}&filter=${enc('{}')}`);
    expect(res.status).to.equal(200);
    expect(res.body).to.be.an('array').with.length(2);
    expect(res.headers.get('content-range')).to.equal('operator 0-1/4');
    const all = (await get('/api/operator?limit=200')).body.data.map((m: Item) => m.email.toLowerCase()).sort().reverse();
    expect(res.body.map((m: Item) => m.email.toLowerCase())).to.deep.equal(all.slice(0, 2));

    const byLevel = await get(`/api/operator?sort=${enc('["accessLevel","ASC"]')}&range=${enc('[0,0]')}`);
    expect(byLevel.body[0].id).to.equal(restricted.id);
    const many = await get(`/api/operator?filter=${enc(JSON.stringify({ id: [agent.id, stranger.id] }))}`);
    expect(many.body.map((m: Item) => m.id)).to.deep.equal([agent.id]);
  });

  it('searches name and e-mail in both dialects', async () => {
    const byName = await get('/api/operator?query=bruno');
    expect(byName.body.data.map((m: Item) => m.id)).to.deep.equal([agent.id]);
    expect(byName.body).to.include({ matchCount: 1, totalCount: 4 });
    const byMail = await get(`/api/operator?filter=${enc('{"q":"outra.com"}')}`);
    expect(byMail.body.map((m: Item) => m.id)).to.deep.equal([restricted.id]);
    expect(byMail.headers.get('content-range')).to.equal('operator 0-0/1');
    const literal = await get(`/api/operator?query=${enc('%')}`);
    expect(literal.body.data).to.deep.equal([]);
  });

  it('filters on isActive and accessLevel', async () => {
    const off = await get('/api/operator?isActive=false');
    expect(off.body.data.map((m: Item) => m.id)).to.deep.equal([inactive.id]);
    const on = await get(`/api/operator?filter=${enc('{"isActive":true,"accessLevel":[3,2]}')}`);
    expect(on.body.map((m: Item) => m.id)).to.deep.equal([agent.id, restricted.id]);
    const three = await get('/api/operator?accessLevel=3');
    expect(three.body.data.map((m: Item) => m.id)).to.deep.equal([agent.id, inactive.id]);
    const bad = await get('/api/operator?accessLevel=7');
    expect(bad.status).to.equal(400);
    expect(bad.body.errors[0].key).to.equal('accessLevel');
    const badSort = await get(`/api/operator?sort=${enc('["passwordHash","ASC"]')}`);
    expect(badSort.status).to.equal(400);
    expect(badSort.body.errors[0].key).to.equal('sort');
  });

  it('is readable by every level, the restricted agent included', async () => {
    for (const op of [agent, restricted]) {
      const res = await get('/api/operator?limit=200', op.token);
      expect(res.status).to.equal(200);
      expect(res.body.data).to.have.length(4);
    }
  });

  it("answers one member by id, and another workspace's operator as 404", async () => {
    const one = await get(`/api/operator/${agent.id}`, restricted.token);
    expect(one.status).to.equal(200);
    expect(one.body.data).to.include({ id: agent.id, name: 'Bruno Agente', isOnline: true });
    expect(one.body.data.groups).to.have.length(2);
    const foreign = await get(`/api/operator/${stranger.id}`);
    expect(foreign.status).to.equal(404);
    expect(foreign.body.errors[0].type).to.equal('NotFoundError');
    expect((await get(`/api/operator/${owner.id}`, stranger.token)).status).to.equal(404);
    expect((await get('/api/operator/abc')).status).to.equal(404);
  });

  it('reads a page with one query for the members and one for all their groups', async () => {
    const sql: string[] = [];
    const onQuery = (q: { sql: string }) => sql.push(q.sql);
    api.deps.knex.on('query', onQuery);
    try {
      expect((await get('/api/operator?limit=200')).status).to.equal(200);
    } finally {
      api.deps.knex.off('query', onQuery);
    }
    expect(sql.filter((q) => q.includes('group_members'))).to.have.length(1);
    expect(sql.filter((q) => q.includes('"operators"."name"') && !q.includes('count('))).to.have.length(1);
  });

  it('requires a valid token', async () => {
    expect((await api.request('GET', '/api/operator')).status).to.equal(401);
  });
});
