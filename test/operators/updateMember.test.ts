import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace } from '../helpers/factories';
import { expectError, fieldErrors } from '../auth/helpers';

describe('PUT /api/operator/:id takes back the record the list answered (issue 11 §5)', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi();
  });
  after(() => api.close());

  it('drops id and the other read-only fields of the record and writes only level and active', async () => {
    const k = api.deps.knex;
    const ws = await makeWorkspace(k);
    const admin = await makeOperator(k, api.config.jwtSecret, ws, 9);
    const agent = await makeOperator(k, api.config.jwtSecret, ws, 3, { name: 'Agente Original' });
    const other = await makeWorkspace(k);
    const record = (await api.request('GET', `/api/operator/${agent.id}`, { token: admin.token })).body.data;
    expect(record).to.include({ id: agent.id, name: 'Agente Original' });

    const res = await api.request('PUT', `/api/operator/${agent.id}`, {
      token: admin.token,
      body: { ...record, isActive: false, name: 'Trocado', email: 'trocado@exemplo.com.br', verificationLevel: 0, groups: [1], workspaceId: other.id, operatorId: admin.id },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data).to.include({ id: agent.id, name: 'Agente Original', email: agent.email, accessLevel: 3, isActive: false, verificationLevel: 2 });
    expect(await k('operators').where({ id: agent.id }).first()).to.include({ name: 'Agente Original', email: agent.email, verificationLevel: 2 });
    expect(await k('workspace_members').where({ operatorId: agent.id }).select('workspaceId', 'isActive')).to.deep.equal([{ workspaceId: ws.id, isActive: false }]);
    expect(await k('workspace_members').where({ workspaceId: other.id }).first()).to.equal(undefined);
    expect(await k('workspace_members').where({ workspaceId: ws.id, operatorId: admin.id }).first()).to.include({ accessLevel: 9, isActive: true });
  });

  it('still refuses in the record a level above what the caller may grant, and a record of someone they may not edit', async () => {
    const k = api.deps.knex;
    const ws = await makeWorkspace(k);
    const master = await makeOperator(k, api.config.jwtSecret, ws, 6);
    const agent = await makeOperator(k, api.config.jwtSecret, ws, 3);
    const peer = await makeOperator(k, api.config.jwtSecret, ws, 6);
    const record = (await api.request('GET', `/api/operator/${agent.id}`, { token: master.token })).body.data;
    const above = await api.request('PUT', `/api/operator/${agent.id}`, { token: master.token, body: { ...record, accessLevel: 9 } });
    expectError(above, 400, 'ValidationError');
    expect(fieldErrors(above)).to.have.key('accessLevel');
    const peerRecord = (await api.request('GET', `/api/operator/${peer.id}`, { token: master.token })).body.data;
    expectError(await api.request('PUT', `/api/operator/${peer.id}`, { token: master.token, body: { ...peerRecord, isActive: false } }), 403, 'ForbiddenError');
    expect(await k('workspace_members').where({ workspaceId: ws.id }).whereIn('operatorId', [agent.id, peer.id]).orderBy('accessLevel').select('accessLevel', 'isActive')).to.deep.equal([
      { accessLevel: 3, isActive: true },
      { accessLevel: 6, isActive: true },
    ]);
  });
});
