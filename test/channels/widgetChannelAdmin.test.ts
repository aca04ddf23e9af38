import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator } from '../helpers/factories';

describe('channel admin: /api/integrations/widget and /api/integrations/channel', () => {
  let api: TestApi;
  let owner: TestOperator;
  let master: TestOperator;
  let agent: TestOperator;
  let stranger: TestOperator;

  before(async () => {
    api = await startTestApi();
    const ws = await makeWorkspace(api.deps.knex);
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
    master = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 6);
    agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
    stranger = await makeOperator(api.deps.knex, api.config.jwtSecret, await makeWorkspace(api.deps.knex), 10);
  });
  after(() => api.close());

  const create = (token: string, body: unknown) => api.request('POST', '/api/integrations/widget', { token, body });

  it('creates a chat widget with a generated 128-bit hex identifier, connected, and reads, updates and deletes it', async () => {
    const res = await create(master.token, { description: '  Chat do site  ', avatar: '#1570EF' });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const channel = res.body.data;
    expect(channel).to.include({ channelId: 'widget', platformId: 4, description: 'Chat do site', name: 'Chat do site', avatar: '#1570EF', status: 'connected' });
    expect(channel.identifier).to.match(/^[0-9a-f]{32}$/);
    expect(channel).to.not.have.property('config');
    expect(channel).to.not.have.property('secretHash');

    const other = await create(master.token, { description: 'Outro', avatar: '#000000' });
    expect(other.body.data.identifier).to.not.equal(channel.identifier);

    const read = await api.request('GET', `/api/integrations/widget/${channel.id}`, { token: owner.token });
    expect(read.body.data).to.deep.equal(channel);

    const put = await api.request('PUT', `/api/integrations/widget/${channel.id}`, {
      token: owner.token,
      body: { ...channel, description: 'Atendimento', avatar: '#12B76A', identifier: 'f'.repeat(32), workspaceId: 999 },
    });
    expect(put.status, JSON.stringify(put.body)).to.equal(200);
    expect(put.body.data).to.include({ description: 'Atendimento', name: 'Atendimento', avatar: '#12B76A', identifier: channel.identifier });

    const del = await api.request('DELETE', `/api/integrations/widget/${channel.id}`, { token: owner.token });
    expect(del.status).to.equal(200);
    expect(del.body.data.id).to.equal(channel.id);
    expect((await api.request('GET', `/api/integrations/widget/${channel.id}`, { token: owner.token })).status).to.equal(404);
  });

  it('refuses below level 6 (403) and hides other workspaces’ channels (404) on every call', async () => {
    const { body } = await create(owner.token, { description: 'Site', avatar: '#1570EF' });
    const id = body.data.id;
    expect((await create(agent.token, { description: 'X', avatar: '#1570EF' })).status).to.equal(403);
    expect((await api.request('GET', `/api/integrations/widget/${id}`, { token: agent.token })).status).to.equal(403);
    expect((await api.request('PUT', `/api/integrations/widget/${id}`, { token: agent.token, body: { description: 'X' } })).status).to.equal(403);
    expect((await api.request('DELETE', `/api/integrations/widget/${id}`, { token: agent.token })).status).to.equal(403);

    expect((await api.request('GET', `/api/integrations/widget/${id}`, { token: stranger.token })).status).to.equal(404);
    expect((await api.request('PUT', `/api/integrations/widget/${id}`, { token: stranger.token, body: { description: 'X' } })).status).to.equal(404);
    expect((await api.request('DELETE', `/api/integrations/widget/${id}`, { token: stranger.token })).status).to.equal(404);
    expect((await api.request('GET', `/api/integrations/widget/${id}`, { token: owner.token })).status, 'still there').to.equal(200);
    expect((await api.request('GET', '/api/integrations/widget/abc', { token: owner.token })).status).to.equal(404);
    expect((await api.request('POST', '/api/integrations/widget', { body: { description: 'X', avatar: '#1570EF' } })).status).to.equal(401);
  });

  it('reports every failing field at once: description required and at most 120 characters, colour as #RRGGBB', async () => {
    const empty = await create(owner.token, {});
    expect(empty.status).to.equal(400);
    expect(empty.body.errors.map((e: { key: string }) => e.key).sort()).to.deep.equal(['avatar', 'description']);

    const bad = await create(owner.token, { description: 'x'.repeat(121), avatar: 'blue' });
    const byKey = Object.fromEntries(bad.body.errors.map((e: { key: string; descriptions: string[] }) => [e.key, e.descriptions[0]]));
    expect(byKey).to.deep.equal({
      description: 'A descrição deve ter no máximo 120 caracteres.',
      avatar: 'Cor inválida: use o formato #RRGGBB.',
    });
    expect((await create(owner.token, { description: '   ', avatar: '#12345' })).body.errors).to.have.length(2);
  });

  it('lists every channel type of the workspace in both list dialects, with search and a type filter', async () => {
    const ws = await makeWorkspace(api.deps.knex);
    const boss = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
    const operator = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 2);
    await create(boss.token, { description: 'Widget da loja', avatar: '#1570EF' });
    await api.deps.knex('channels').insert({ workspaceId: ws.id, platformId: 2, type: 'telegram', description: 'Bot da loja', name: 'Bot da loja', identifier: `tg-${ws.id}` });
    await create(stranger.token, { description: 'De outra empresa', avatar: '#1570EF' });

    const spec = await api.request('GET', '/api/integrations/channel', { token: operator.token });
    expect(spec.status).to.equal(200);
    expect(spec.body).to.include({ matchCount: 2, totalCount: 2 });
    expect(spec.body.data.map((c: { channelId: string }) => c.channelId).sort()).to.deep.equal(['telegram', 'widget']);
    expect(spec.body.data[0]).to.have.all.keys('id', 'channelId', 'platformId', 'description', 'name', 'phone', 'status', 'statusReason', 'identifier', 'avatar', 'createdAt');

    const search = await api.request('GET', '/api/integrations/channel?query=widget', { token: boss.token });
    expect(search.body).to.include({ matchCount: 1, totalCount: 2 });

    const ra = await api.request(
      'GET',
      `/api/integrations/channel?sort=${encodeURIComponent('["description","ASC"]')}&range=${encodeURIComponent('[0,0]')}&filter=${encodeURIComponent('{"channelId":"telegram"}')}`,
      { token: boss.token },
    );
    expect(ra.body).to.be.an('array').with.length(1);
    expect(ra.body[0].description).to.equal('Bot da loja');
    expect(ra.headers.get('content-range')).to.equal('channel 0-0/1');

    const badSort = await api.request('GET', `/api/integrations/channel?sort=${encodeURIComponent('["config","ASC"]')}`, { token: boss.token });
    expect(badSort.status).to.equal(400);
  });
});
