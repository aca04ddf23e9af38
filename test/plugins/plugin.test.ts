import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator } from '../helpers/factories';

describe('plugins resource /api/plugin', () => {
  let api: TestApi;
  let master: TestOperator;
  let agent: TestOperator;
  let stranger: TestOperator;

  before(async () => {
    api = await startTestApi();
    const ws = await makeWorkspace(api.deps.knex);
    master = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 6);
    agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
    const other = await makeWorkspace(api.deps.knex);
    stranger = await makeOperator(api.deps.knex, api.config.jwtSecret, other, 10);
  });
  after(() => api.close());

  it('creates a plugin with a generated secret and regenerates it on request', async () => {
    const res = await api.request('POST', '/api/plugin', { token: master.token, body: { name: 'CRM', endpoint: 'https://crm.example.com/panel', authSecret: 'chosen' } });
    expect(res.status).to.equal(400); // authSecret is never chosen by a client
    const ok = await api.request('POST', '/api/plugin', { token: master.token, body: { name: 'CRM', endpoint: 'https://crm.example.com/panel', dev: true } });
    expect(ok.status).to.equal(201);
    expect(ok.body.data).to.include({ name: 'CRM', endpoint: 'https://crm.example.com/panel', dev: true });
    expect(ok.body.data.authSecret).to.match(/^[A-Za-z0-9_-]{32}$/);
    const same = await api.request('PUT', `/api/plugin/${ok.body.data.id}`, { token: master.token, body: { name: 'CRM 2' } });
    expect(same.body.data.authSecret).to.equal(ok.body.data.authSecret);
    const regen = await api.request('PUT', `/api/plugin/${ok.body.data.id}`, { token: master.token, body: { regenerateSecret: true } });
    expect(regen.status).to.equal(200);
    expect(regen.body.data.authSecret).to.not.equal(ok.body.data.authSecret);
  });

  for (const [label, endpoint] of [
    ['plain http', 'http://crm.example.com/'],
    ['javascript:', 'javascript:alert(1)'],
    ['credentials in the URL', 'https://user:pass@crm.example.com/'],
    ['loopback 127.0.0.1', 'https://127.0.0.1/'],
    ['private 10.x', 'https://10.1.2.3/'],
    ['localhost', 'https://localhost:8443/'],
    ['IPv4-mapped IPv6 loopback', 'https://[::ffff:127.0.0.1]/'],
    ['link-local metadata address', 'https://169.254.169.254/'],
    ['decimal IPv4 loopback', 'https://2130706433/'],
  ] as const) {
    it(`refuses an endpoint with ${label}`, async () => {
      const res = await api.request('POST', '/api/plugin', { token: master.token, body: { name: 'X', endpoint } });
      expect(res.status).to.equal(400);
      expect(res.body.errors.map((e: { key: string }) => e.key)).to.deep.equal(['endpoint']);
    });
  }

  it('lets level 3 read plugins but not write them', async () => {
    const created = await api.request('POST', '/api/plugin', { token: master.token, body: { name: 'Leitura', endpoint: 'https://read.example.com/' } });
    const list = await api.request('GET', '/api/plugin', { token: agent.token });
    expect(list.status).to.equal(200);
    expect(list.body.data.map((p: { name: string }) => p.name)).to.include('Leitura');
    const write = await api.request('POST', '/api/plugin', { token: agent.token, body: { name: 'Y', endpoint: 'https://y.example.com/' } });
    expect(write.status).to.equal(403);
    const edit = await api.request('PUT', `/api/plugin/${created.body.data.id}`, { token: agent.token, body: { name: 'Z' } });
    expect(edit.status).to.equal(403);
    const del = await api.request('DELETE', `/api/plugin/${created.body.data.id}`, { token: agent.token });
    expect(del.status).to.equal(403);
  });

  it("answers 404 for another workspace's plugin", async () => {
    const created = await api.request('POST', '/api/plugin', { token: master.token, body: { name: 'Privado', endpoint: 'https://p.example.com/' } });
    const id = created.body.data.id;
    expect((await api.request('GET', `/api/plugin/${id}`, { token: stranger.token })).status).to.equal(404);
    expect((await api.request('PUT', `/api/plugin/${id}`, { token: stranger.token, body: { name: 'Roubado' } })).status).to.equal(404);
    expect((await api.request('DELETE', `/api/plugin/${id}`, { token: stranger.token })).status).to.equal(404);
    const list = await api.request('GET', '/api/plugin', { token: stranger.token });
    expect(list.body.data).to.deep.equal([]);
  });
});
