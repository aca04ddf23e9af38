import { decodeProtectedHeader, jwtVerify } from 'jose';
import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator } from '../helpers/factories';
import { makeChannel, makeConversation } from '../inbox/factories';
import { PLUGIN_TOKEN_TTL_S } from '../../api/plugins/pluginToken';

describe('plugin auth: a short-lived signed token instead of the auth secret (POST /api/plugin/:id/token)', () => {
  let api: TestApi;
  let admin: TestOperator;
  let agent: TestOperator;
  let stranger: TestOperator;
  let plugin: { id: number; authSecret: string; endpoint: string };

  before(async () => {
    api = await startTestApi();
    const ws = await makeWorkspace(api.deps.knex);
    admin = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 9);
    agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 2);
    stranger = await makeOperator(api.deps.knex, api.config.jwtSecret, await makeWorkspace(api.deps.knex), 10);
    const res = await api.request('POST', '/api/plugin', { token: admin.token, body: { name: 'CRM', endpoint: 'https://crm.example.com:8443/painel?x=1' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    plugin = res.body.data;
  });
  after(() => api.close());

  const tokenFor = (who: TestOperator, body: Record<string, unknown>, id = plugin.id) => api.request('POST', `/api/plugin/${id}/token`, { token: who.token, body });
  const key = () => new TextEncoder().encode(plugin.authSecret);

  it('signs HS256 with the plugin’s secret: workspace, operator, conversation and customer, audience the endpoint’s origin, valid for 5 minutes', async () => {
    const channel = await makeChannel(api.deps.knex, { id: admin.workspaceId, name: 'ws' }, 'widget');
    const conversation = await makeConversation(api.deps, channel, { name: 'Bruna' });
    const { customerId } = await api.deps.knex('customerPlatforms').where({ id: conversation.conversationId }).first('customerId');
    const res = await tokenFor(admin, { conversationId: conversation.conversationId });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const { token, expiresAt } = res.body.data as { token: string; expiresAt: string };
    expect(decodeProtectedHeader(token)).to.deep.equal({ alg: 'HS256', typ: 'JWT' });
    const { payload } = await jwtVerify(token, key(), { algorithms: ['HS256'], issuer: 'balcao', audience: 'https://crm.example.com:8443', clockTolerance: 30 });
    expect(payload).to.include({
      iss: 'balcao',
      aud: 'https://crm.example.com:8443',
      sub: String(admin.id),
      workspace_id: admin.workspaceId,
      operator_id: admin.id,
      plugin_id: plugin.id,
      conversation_id: conversation.conversationId,
      customer_id: customerId,
    });
    expect(payload.exp! - payload.iat!).to.equal(PLUGIN_TOKEN_TTL_S).and.to.equal(300);
    expect(Math.abs(payload.iat! - Date.now() / 1000)).to.be.below(30);
    expect(new Date(expiresAt).getTime()).to.equal(payload.exp! * 1000);
    expect(payload.jti).to.be.a('string');
    // Another key, or another plugin's origin, does not verify it.
    let failed = 0;
    await jwtVerify(token, new TextEncoder().encode('outro-segredo'), { algorithms: ['HS256'] }).catch(() => failed++);
    await jwtVerify(token, key(), { algorithms: ['HS256'], audience: 'https://outro.example.com' }).catch(() => failed++);
    expect(failed).to.equal(2);
    // With no conversation open, the token says so.
    const none = await tokenFor(admin, {});
    const { payload: empty } = await jwtVerify(none.body.data.token, key(), { audience: 'https://crm.example.com:8443' });
    expect(empty).to.include({ conversation_id: null, customer_id: null, operator_id: admin.id });
  });

  it('the auth secret never reaches the inbox: operators read plugins without it; managers (level 6+) still see it in settings', async () => {
    const asAgent = await api.request('GET', '/api/plugin', { token: agent.token });
    expect(asAgent.status).to.equal(200);
    const mine = (asAgent.body.data as Record<string, unknown>[]).find((p) => p.id === plugin.id)!;
    expect(mine).to.include({ name: 'CRM', endpoint: plugin.endpoint });
    expect(mine).to.not.have.property('authSecret');
    expect(JSON.stringify(asAgent.body)).to.not.include(plugin.authSecret);
    expect((await api.request('GET', `/api/plugin/${plugin.id}`, { token: agent.token })).body.data).to.not.have.property('authSecret');
    expect((await api.request('GET', `/api/plugin/${plugin.id}`, { token: admin.token })).body.data.authSecret).to.equal(plugin.authSecret);
    // Every level may get a token for the plugins it sees.
    expect((await tokenFor(agent, {})).status).to.equal(200);
  });

  it('refuses a conversation the operator may not see, another workspace’s plugin or conversation, and unknown fields', async () => {
    const channel = await makeChannel(api.deps.knex, { id: admin.workspaceId, name: 'ws' }, 'widget');
    const othersConversation = await makeConversation(api.deps, channel, { operatorId: admin.id });
    expect((await tokenFor(agent, { conversationId: othersConversation.conversationId })).status, 'assigned to someone else: hidden from level 2').to.equal(404);
    expect((await tokenFor(stranger, {})).status, 'another workspace’s plugin').to.equal(404);
    const strangerChannel = await makeChannel(api.deps.knex, { id: stranger.workspaceId, name: 'x' }, 'widget');
    const strangerConversation = await makeConversation(api.deps, strangerChannel);
    expect((await tokenFor(admin, { conversationId: strangerConversation.conversationId })).status).to.equal(404);
    expect((await tokenFor(admin, { conversationId: 'abc' })).status).to.equal(400);
    expect((await tokenFor(admin, { workspaceId: stranger.workspaceId })).status).to.equal(400);
    expect((await api.request('POST', `/api/plugin/${plugin.id}/token`, { body: {} })).status).to.equal(401);
  });
});
