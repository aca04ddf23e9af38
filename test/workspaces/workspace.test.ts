import { expect } from 'chai';
import mqtt from 'mqtt';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace } from '../helpers/factories';
import { topics } from '../../api/realtime/publisher';
import { expectError, fieldErrors, signUp } from '../auth/helpers';

describe('workspace API: POST, GET and PUT /api/workspace', () => {
  let api: TestApi;

  before(async () => {
    api = await startTestApi();
  });
  after(() => api.close());
  beforeEach(() => api.deps.rateLimiter.reset());

  it('creates a workspace owned by the caller, with a trial, and answers a session in it', async () => {
    const s = await signUp(api);
    const res = await api.request('POST', '/api/workspace', { token: s.token, body: { name: 'Filial Sul' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const { user, workspace } = res.body.data;
    expect(workspace).to.include({ workspace: 'Filial Sul', accessLevel: 10 });
    expect(workspace.workspaceId).to.not.equal(s.workspaceId);
    expect(workspace.subscription).to.include({ license: 'trial' });
    expect(user.workspaces.map((w: { workspace: string }) => w.workspace)).to.deep.equal([s.workspaceName, 'Filial Sul']);
    const current = await api.request('GET', '/api/workspace', { token: workspace.token });
    expect(current.body.data).to.deep.include({ id: workspace.workspaceId, name: 'Filial Sul', avatar: null, timeZone: 'America/Sao_Paulo' });
    // The old session still points at the old workspace.
    expect((await api.request('GET', '/api/workspace', { token: s.token })).body.data.id).to.equal(s.workspaceId);
  });

  it('lets any level create a workspace', async () => {
    const ws = await makeWorkspace(api.deps.knex);
    const agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 2);
    const res = await api.request('POST', '/api/workspace', { token: agent.token, body: { name: 'Meu próprio' } });
    expect(res.status).to.equal(201);
    expect(res.body.data.workspace.accessLevel).to.equal(10);
  });

  it('answers the current workspace on GET', async () => {
    const s = await signUp(api, { workspace: 'Mercadinho' });
    const res = await api.request('GET', '/api/workspace', { token: s.token });
    expect(res.status).to.equal(200);
    expect(res.body.data).to.have.keys(['id', 'name', 'avatar', 'timeZone', 'customerIdentifier']);
    expect(res.body.data).to.include({ id: s.workspaceId, name: 'Mercadinho', customerIdentifier: s.body.data.workspace.customerIdentifier });
  });

  it('updates name, avatar and time zone at level 6+ and publishes WorkspaceActivation after commit', async () => {
    const s = await signUp(api);
    const client = await mqtt.connectAsync(`${api.url.replace(/^http/, 'ws')}/mqtt`, {
      username: String(s.operatorId),
      password: s.token,
      reconnectPeriod: 0,
      connectTimeout: 3000,
    });
    try {
      const received: { topic: string; body: any }[] = [];
      client.on('message', (topic, payload) => received.push({ topic, body: JSON.parse(payload.toString()) }));
      await client.subscribeAsync(topics.workspace(s.workspaceId), { qos: 1 });

      const res = await api.request('PUT', '/api/workspace', {
        token: s.token,
        body: { workspace: 'Nome Novo', avatar: 'https://cdn.exemplo.com/logo.png', timeZone: 'America/Manaus', workspaceId: s.workspaceId },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data).to.include({ name: 'Nome Novo', avatar: 'https://cdn.exemplo.com/logo.png', timeZone: 'America/Manaus' });

      for (let i = 0; i < 100 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(received).to.have.length(1);
      expect(received[0].topic).to.equal(`ws/${s.workspaceId}/all`);
      expect(received[0].body.event).to.equal('WorkspaceActivation');
      expect(received[0].body.data).to.deep.equal({ message: 'Workspace atualizado', workspaceId: s.workspaceId, workspace: 'Nome Novo' });
    } finally {
      await client.endAsync(true);
    }

    const byName = await api.request('PUT', '/api/workspace', { token: s.token, body: { name: 'Pelo Name' } });
    expect(byName.body.data.name).to.equal('Pelo Name');
    const login = await api.request('POST', '/api/operators/login', { body: { email: s.email, password: s.password } });
    expect(login.body.data.workspace.workspace).to.equal('Pelo Name');
  });

  it('forbids levels below 6 and requires the workspace name (SPEC §5)', async () => {
    const ws = await makeWorkspace(api.deps.knex, 'Intocável');
    const agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
    const master = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 6);
    expectError(await api.request('PUT', '/api/workspace', { token: agent.token, body: { name: 'Tomado' } }), 403, 'ForbiddenError');
    const missing = await api.request('PUT', '/api/workspace', { token: master.token, body: { avatar: null } });
    expectError(missing, 400, 'ValidationError');
    expect(fieldErrors(missing)).to.deep.equal({ name: ['Campo obrigatório.'] });
    const blank = await api.request('PUT', '/api/workspace', { token: master.token, body: { workspace: '   ', timeZone: 'Lua/Crateras' } });
    expect(fieldErrors(blank)).to.deep.equal({ workspace: ['Campo obrigatório.'], timeZone: ['Fuso horário inválido.'] });
    expect((await api.request('PUT', '/api/workspace', { token: master.token, body: { name: 'Renomeado' } })).status).to.equal(200);
    const createMissing = await api.request('POST', '/api/workspace', { token: agent.token, body: {} });
    expect(fieldErrors(createMissing)).to.deep.equal({ name: ['Campo obrigatório.'] });
  });

  it("answers 404 for another workspace's id and never renames it", async () => {
    const a = await signUp(api);
    const b = await signUp(api, { workspace: 'Do Outro' });
    const res = await api.request('PUT', '/api/workspace', { token: a.token, body: { name: 'Invadido', workspaceId: b.workspaceId } });
    expectError(res, 404, 'NotFoundError');
    expect((await api.deps.knex('workspaces').where({ id: b.workspaceId }).first()).name).to.equal('Do Outro');
    const stray = await api.request('PUT', '/api/workspace', { token: a.token, body: { name: 'X', customerIdentifier: 'forjado' } });
    expect(fieldErrors(stray)).to.deep.equal({ customerIdentifier: ['Campo não permitido.'] });
  });

  it('requires a session', async () => {
    for (const method of ['GET', 'POST', 'PUT']) {
      expectError(await api.request(method, '/api/workspace', { body: method === 'GET' ? undefined : { name: 'x' } }), 401, 'AuthenticationError');
    }
  });
});
