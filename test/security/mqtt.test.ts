import { expect } from 'chai';
import type { MqttClient } from 'mqtt';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { topics } from '../../api/realtime/publisher';
import { createAccountToken } from '../../api/auth/accountTokens';
import { Clients, subscribeCodes } from '../realtime/mqttClients';

/**
 * MQTT (issue 6 "Security"): what an operator may subscribe to on the embedded broker, and how fast a
 * session ends once its token no longer stands. test/realtime/broker.test.ts holds the broker's other rules.
 */
const FEW_SECONDS = 3000;

function closedWithin(client: MqttClient, ms: number): Promise<number> {
  const started = Date.now();
  if (!client.connected) return Promise.resolve(0);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`session still open after ${ms} ms`)), ms);
    client.once('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - started);
    });
  });
}

describe('security: MQTT subscriptions and revoked sessions', () => {
  let api: TestApi;
  let clients: Clients;
  let wsA: TestWorkspace;
  let wsB: TestWorkspace;
  let admin: TestOperator;
  let b1: TestOperator;

  before(async () => {
    api = await startTestApi();
    clients = new Clients(api.url);
    wsA = await makeWorkspace(api.deps.knex);
    wsB = await makeWorkspace(api.deps.knex);
    admin = await makeOperator(api.deps.knex, api.config.jwtSecret, wsA, 10);
    b1 = await makeOperator(api.deps.knex, api.config.jwtSecret, wsB, 10);
  });
  afterEach(() => clients.endAll());
  after(() => api.close());
  beforeEach(() => api.deps.rateLimiter.reset());

  const agent = () => makeOperator(api.deps.knex, api.config.jwtSecret, wsA, 3);

  it('refuses #, $SYS/#, another workspace’s and another operator’s topics, one by one and mixed with allowed ones', async () => {
    const me = await agent();
    const other = await agent();
    const client = await clients.connect(String(me.id), me.token);
    const refused = ['#', '$SYS/#', '$SYS/broker/clients/connected', '+/#', topics.workspace(wsB.id), topics.operator(wsB.id, b1.id), topics.operator(wsA.id, other.id), `ws/${wsA.id}/#`, `ws/${wsB.id}/+/${b1.id}`];
    for (const topic of refused) expect(await subscribeCodes(client, [topic]), topic).to.deep.equal([128]);
    const allowed = [topics.operator(wsA.id, me.id), topics.workspace(wsA.id)];
    expect(await subscribeCodes(client, [...refused, ...allowed])).to.deep.equal([...refused.map(() => 128), 1, 1]);
  });

  it('ends the session of an agent deactivated by an admin within a few seconds, and refuses it again', async () => {
    const a = await agent();
    const client = await clients.connect(String(a.id), a.token);
    const closing = closedWithin(client, FEW_SECONDS);
    expect((await api.request('PUT', `/api/operator/${a.id}`, { token: admin.token, body: { isActive: false } })).status).to.equal(200);
    await closing;
    expect(await clients.refusal(String(a.id), a.token)).to.equal(4);
  });

  it('ends every session of an operator who changes the password within a few seconds; the old token is refused, the new one connects', async () => {
    const a = await agent();
    const first = await clients.connect(String(a.id), a.token);
    const second = await clients.connect(String(a.id), a.token);
    const closing = [closedWithin(first, FEW_SECONDS), closedWithin(second, FEW_SECONDS)];
    const res = await api.request('POST', '/api/operators/change-password', { token: a.token, body: { password: a.password, newPassword: 'nova-senha-1', confirmNewPassword: 'nova-senha-1' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    await Promise.all(closing);
    expect(await clients.refusal(String(a.id), a.token)).to.equal(4);
    const fresh = res.body.data.workspace.token;
    expect(fresh, JSON.stringify(res.body)).to.be.a('string');
    await clients.connect(String(a.id), fresh);
  });

  it('ends the sessions of an operator whose password is reset through the e-mailed link', async () => {
    const a = await agent();
    const client = await clients.connect(String(a.id), a.token);
    const closing = closedWithin(client, FEW_SECONDS);
    const token = await api.deps.knex.transaction((trx) => createAccountToken(trx, { purpose: 'reset_password', operatorId: a.id }));
    const res = await api.request('PUT', '/api/operators/reset-password', { body: { newPassword: 'nova-senha-2', confirmNewPassword: 'nova-senha-2', token, email: a.email } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    await closing;
    expect(await clients.refusal(String(a.id), a.token)).to.equal(4);
  });
});
