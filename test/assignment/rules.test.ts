import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { makeChannel, makeGroup, type TestChannel } from '../inbox/factories';

describe('assignment rules resource /api/assignment-rules and POST /api/operators/presence', () => {
  let api: TestApi;
  let ws: TestWorkspace;
  let owner: TestOperator;
  let master: TestOperator;
  let agent: TestOperator;
  let stranger: TestOperator;
  let channel: TestChannel;
  let groupId: number;
  let foreign: { channel: TestChannel; groupId: number; businessHours: number; operator: TestOperator };

  before(async () => {
    api = await startTestApi();
    const knex = api.deps.knex;
    ws = await makeWorkspace(knex);
    owner = await makeOperator(knex, api.config.jwtSecret, ws, 10);
    master = await makeOperator(knex, api.config.jwtSecret, ws, 6);
    agent = await makeOperator(knex, api.config.jwtSecret, ws, 3);
    channel = await makeChannel(knex, ws);
    groupId = await makeGroup(knex, ws, [agent.id]);
    const other = await makeWorkspace(knex);
    stranger = await makeOperator(knex, api.config.jwtSecret, other, 10);
    const [bh] = await knex('business_hours').insert({ workspaceId: other.id, name: 'Outro', days: JSON.stringify({ mon: { active: true, hours: [] }, tue: { active: true, hours: [] }, wed: { active: true, hours: [] }, thu: { active: true, hours: [] }, fri: { active: true, hours: [] }, sat: { active: true, hours: [] }, sun: { active: true, hours: [] } }) }).returning('id');
    foreign = { channel: await makeChannel(knex, other), groupId: await makeGroup(knex, other, [stranger.id]), businessHours: bh.id, operator: stranger };
  });
  after(() => api.close());

  it('creates, lists, toggles active from the list, updates and deletes a rule', async () => {
    const created = await api.request('POST', '/api/assignment-rules', { token: master.token, body: { name: 'Suporte', rules: { group: groupId, workspacePlatformId: channel.id } } });
    expect(created.status).to.equal(201);
    expect(created.body.data).to.deep.include({ name: 'Suporte', isActive: true, rules: { group: groupId, workspacePlatformId: channel.id } });
    const id = created.body.data.id;

    const toggled = await api.request('PUT', `/api/assignment-rules/${id}`, { token: owner.token, body: { isActive: false } });
    expect(toggled.status).to.equal(200);
    expect(toggled.body.data.isActive).to.equal(false);

    const list = await api.request('GET', '/api/assignment-rules', { token: master.token });
    expect(list.status).to.equal(200);
    expect(list.body.data.find((r: { id: number }) => r.id === id)).to.deep.include({ isActive: false });

    const updated = await api.request('POST', '/api/assignment-rules', { token: owner.token, body: { id, name: 'Vendas', rules: { operator: agent.id, workspacePlatformId: channel.id } } });
    expect(updated.status).to.equal(200);
    expect(updated.body.data).to.deep.include({ id, name: 'Vendas', rules: { operator: agent.id, workspacePlatformId: channel.id } });

    expect((await api.request('DELETE', `/api/assignment-rules/${id}`, { token: owner.token })).status).to.equal(200);
    expect((await api.request('GET', `/api/assignment-rules/${id}`, { token: owner.token })).status).to.equal(404);
  });

  it('requires a name and a channel and a group or an agent, every failing field at once', async () => {
    const res = await api.request('POST', '/api/assignment-rules', { token: owner.token, body: { name: '', rules: {} } });
    expect(res.status).to.equal(400);
    const keys = res.body.errors.map((e: { key: string }) => e.key).sort();
    expect(keys).to.include.members(['name', 'rules.workspacePlatformId']);
    const unknown = await api.request('POST', '/api/assignment-rules', { token: owner.token, body: { name: 'X', rules: { workspacePlatformId: channel.id }, workspaceId: 1 } });
    expect(unknown.status).to.equal(400);
    const noTarget = await api.request('POST', '/api/assignment-rules', { token: owner.token, body: { name: 'X', rules: { workspacePlatformId: channel.id } } });
    expect(noTarget.status).to.equal(400);
    expect(noTarget.body.errors[0]).to.include({ key: 'rules.group' });
    expect(noTarget.body.errors[0].descriptions).to.deep.equal(['Selecione um grupo ou um agente.']);
  });

  it('answers 404 for ids of another workspace in the rule and for another workspace rule', async () => {
    for (const rules of [
      { group: groupId, workspacePlatformId: foreign.channel.id },
      { group: foreign.groupId, workspacePlatformId: channel.id },
      { operator: foreign.operator.id, workspacePlatformId: channel.id },
      { group: groupId, workspacePlatformId: channel.id, businessHours: foreign.businessHours },
    ]) {
      const res = await api.request('POST', '/api/assignment-rules', { token: owner.token, body: { name: 'Intrusa', rules } });
      expect(res.status, JSON.stringify(rules)).to.equal(404);
    }
    expect(await api.deps.knex('assignment_rules').where({ workspaceId: ws.id, name: 'Intrusa' })).to.have.length(0);
    const mine = await api.request('POST', '/api/assignment-rules', { token: owner.token, body: { name: 'Minha', rules: { group: groupId, workspacePlatformId: channel.id } } });
    expect((await api.request('GET', `/api/assignment-rules/${mine.body.data.id}`, { token: stranger.token })).status).to.equal(404);
    expect((await api.request('PUT', `/api/assignment-rules/${mine.body.data.id}`, { token: stranger.token, body: { isActive: false } })).status).to.equal(404);
  });

  it('is level 6+ to read and write (SPEC §6; level 3 gets 403)', async () => {
    expect((await api.request('GET', '/api/assignment-rules', { token: agent.token })).status).to.equal(403);
    const res = await api.request('POST', '/api/assignment-rules', { token: agent.token, body: { name: 'Minha', rules: { group: groupId, workspacePlatformId: channel.id } } });
    expect(res.status).to.equal(403);
  });

  it('sets the caller presence with POST /api/operators/presence and validates the body', async () => {
    const on = await api.request('POST', '/api/operators/presence', { token: agent.token, body: { online: true } });
    expect(on.status).to.equal(200);
    expect(on.body.data).to.deep.include({ online: true });
    expect((await api.deps.knex('workspace_members').where({ workspaceId: ws.id, operatorId: agent.id }).first('is_online')).isOnline).to.equal(true);
    const off = await api.request('POST', '/api/operators/presence', { token: agent.token, body: { online: false } });
    expect(off.body.data).to.deep.include({ online: false });
    expect((await api.deps.knex('workspace_members').where({ workspaceId: ws.id, operatorId: agent.id }).first('is_online')).isOnline).to.equal(false);
    const bad = await api.request('POST', '/api/operators/presence', { token: agent.token, body: { online: 'sim' } });
    expect(bad.status).to.equal(400);
    expect(bad.body.errors[0].key).to.equal('online');
    expect((await api.request('POST', '/api/operators/presence', { body: { online: true } })).status).to.equal(401);
  });
});
