import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator } from '../helpers/factories';

describe('workspace API token /api/workspace/secrets', () => {
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

  it('shows the token once, then masked, and stores only its hash', async () => {
    const empty = await api.request('GET', '/api/workspace/secrets', { token: master.token });
    expect(empty.body.data).to.include({ apiSecret: null, apiToken: null });
    const gen = await api.request('POST', '/api/workspace/secrets', { token: master.token });
    expect(gen.status).to.equal(201);
    const { apiToken, apiSecret } = gen.body.data;
    expect(apiToken).to.match(/^blc_[A-Za-z0-9_-]{43}$/);
    const shown = await api.request('GET', '/api/workspace/secrets', { token: master.token });
    expect(shown.body.data.apiSecret).to.equal(apiSecret);
    expect(shown.body.data.apiToken).to.not.equal(apiToken);
    expect(shown.body.data.apiToken.endsWith(apiToken.slice(-4))).to.equal(true);
    expect(gen.body.data.createdBy, 'says whose rights the token carries').to.deep.equal({ id: master.id, name: master.name });
    expect(shown.body.data.createdBy).to.deep.equal({ id: master.id, name: master.name });
    const rows = await api.deps.knex('api_secrets').where({ workspace_id: master.workspaceId });
    expect(JSON.stringify(rows)).to.not.include(apiToken.slice(4));
    expect(rows.map((r: { tokenHash: string }) => r.tokenHash)).to.include(createHash('sha256').update(apiToken).digest('hex'));
  });

  it('authenticates a read call for its workspace, and stops at once after regenerate', async () => {
    await api.request('POST', '/api/label', { token: master.token, body: { name: 'Via API', color: '#D1FADF', textColor: '#027A48' } });
    const first = (await api.request('POST', '/api/workspace/secrets', { token: master.token })).body.data.apiToken;
    const read = await api.request('GET', '/api/label', { token: first });
    expect(read.status).to.equal(200);
    expect(read.body.data.map((t: { name: string }) => t.name)).to.include('Via API');
    const second = (await api.request('POST', '/api/workspace/secrets', { token: master.token })).body.data.apiToken;
    expect((await api.request('GET', '/api/label', { token: first })).status).to.equal(401);
    expect((await api.request('GET', '/api/label', { token: second })).status).to.equal(200);
  });

  it('refuses a wrong token, and a token never reaches another workspace', async () => {
    expect((await api.request('GET', '/api/label', { token: 'blc_' + 'x'.repeat(43) })).status).to.equal(401);
    const theirs = (await api.request('POST', '/api/workspace/secrets', { token: stranger.token })).body.data.apiToken;
    const plugin = await api.request('POST', '/api/plugin', { token: master.token, body: { name: 'Meu', endpoint: 'https://meu.example.com/' } });
    expect((await api.request('GET', `/api/plugin/${plugin.body.data.id}`, { token: theirs })).status).to.equal(404);
  });

  it('is managed from level 6, and a token cannot regenerate itself', async () => {
    expect((await api.request('GET', '/api/workspace/secrets', { token: agent.token })).status).to.equal(403);
    expect((await api.request('POST', '/api/workspace/secrets', { token: agent.token })).status).to.equal(403);
    const token = (await api.request('POST', '/api/workspace/secrets', { token: master.token })).body.data.apiToken;
    expect((await api.request('POST', '/api/workspace/secrets', { token })).status).to.equal(403);
  });
});
