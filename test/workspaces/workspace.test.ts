import { expect } from 'chai';
import mqtt from 'mqtt';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace } from '../helpers/factories';
import { topics } from '../../api/realtime/publisher';
import { expectError, fieldErrors, newEmail, signUp } from '../auth/helpers';
import { workflowIds } from '../../workflows/ids';
import { unique } from '../helpers/factories';

describe('workspace API: POST, GET and PUT /api/workspace', () => {
  let api: TestApi;

  before(async () => {
    api = await startTestApi();
  });
  after(() => api.close());
  beforeEach(() => api.deps.rateLimiter.reset());

  it('creates a workspace owned by the caller and answers a session in it', async () => {
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

  it('lets any level create a workspace; the first one an address opens gets the trial', async () => {
    const ws = await makeWorkspace(api.deps.knex);
    const agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 2);
    const res = await api.request('POST', '/api/workspace', { token: agent.token, body: { name: 'Meu próprio' } });
    expect(res.status).to.equal(201);
    expect(res.body.data.workspace.accessLevel).to.equal(10);
    expect(res.body.data.workspace.subscription).to.include({ license: 'trial', status: 'active' });
    expect(res.body.data).to.not.have.property('notice');
  });

  describe('one trial per e-mail (issue 10 item 11, SPEC §1)', () => {
    async function noLifecycle(subscriptionId: number) {
      const client = await api.deps.temporal.client();
      const handle = client.workflow.getHandle(workflowIds.subscription(subscriptionId));
      for (let i = 0; i < 10; i++) {
        expect(await handle.describe().then(() => 'running', () => 'none')).to.equal('none');
        await new Promise((r) => setTimeout(r, 100));
      }
    }

    it('a later workspace of the same owner starts without a trial, says why, and waits for no expiry', async () => {
      const s = await signUp(api);
      expect(s.body.data.workspace.subscription).to.include({ license: 'trial', status: 'active' });
      expect(s.body.data).to.not.have.property('notice');
      for (const name of ['Filial Norte', 'Filial Oeste']) {
        const before = Date.now();
        const res = await api.request('POST', '/api/workspace', { token: s.token, body: { name } });
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        const sub = res.body.data.workspace.subscription;
        expect(sub).to.include({ license: 'trial', status: 'expired' });
        expect(new Date(sub.expiresAt).getTime()).to.be.within(before - 5000, Date.now());
        expect(res.body.data.notice).to.match(/avaliação gratuita vale uma vez por e-mail/);
        const row = await api.deps.knex('subscriptions').where({ workspaceId: res.body.data.workspace.workspaceId }).first();
        expect(row).to.include({ status: 'expired', license: 'trial' });
        await noLifecycle(sub.id);
      }
      expect(await api.deps.knex('trial_grants').where({ emailKey: s.email }).pluck('workspace_id')).to.deep.equal([s.workspaceId]);
    });

    it('an address with "+tag" or other capitals is the same address: its second signup gets no trial', async () => {
      const [local, domain] = newEmail('tag').split('@');
      const first = await signUp(api, { email: `${local}+um@${domain}` });
      expect(first.body.data.workspace.subscription.status).to.equal('active');
      const res = await api.request('POST', '/api/signup', {
        body: { name: 'De Novo', workspace: unique('Outra'), email: `${local.toUpperCase()}+dois@${domain}`, password: 'senha-forte-1', acceptTerms: true },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.data.workspace.subscription).to.include({ license: 'trial', status: 'expired' });
      expect(res.body.data.notice).to.match(/avaliação gratuita/);
    });

    it('two workspaces opened at once by an address that never had a trial get one trial between them', async () => {
      const ws = await makeWorkspace(api.deps.knex);
      const agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
      const answers = await Promise.all(['Paralelo A', 'Paralelo B'].map((name) => api.request('POST', '/api/workspace', { token: agent.token, body: { name } })));
      expect(answers.map((r) => r.status)).to.deep.equal([201, 201]);
      expect(answers.map((r) => r.body.data.workspace.subscription.status).sort()).to.deep.equal(['active', 'expired']);
    });
  });

  it('answers the current workspace on GET', async () => {
    const s = await signUp(api, { workspace: 'Mercadinho' });
    const res = await api.request('GET', '/api/workspace', { token: s.token });
    expect(res.status).to.equal(200);
    expect(res.body.data).to.have.keys(['id', 'name', 'avatar', 'timeZone', 'customerIdentifier', 'assignOnManualReply', 'awayAfterMinutes']);
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
      // The connection's own presence (member.availability) also goes to the workspace: only the update's event counts here.
      client.on('message', (topic, payload) => {
        const body = JSON.parse(payload.toString());
        if (body.event !== 'member.availability') received.push({ topic, body });
      });
      await client.subscribeAsync(topics.workspace(s.workspaceId), { qos: 1 });

      const res = await api.request('PUT', '/api/workspace', {
        token: s.token,
        body: { workspace: 'Nome Novo', avatar: 'https://cdn.exemplo.com/logo.png', timeZone: 'America/Manaus', workspaceId: s.workspaceId },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data).to.include({ name: 'Nome Novo', avatar: 'https://cdn.exemplo.com/logo.png', timeZone: 'America/Manaus' });

      for (const deadline = Date.now() + 15_000; received.length === 0 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 100)); // room for a second event, which must not come
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
