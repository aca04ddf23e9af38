import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { topics } from '../../api/realtime/publisher';
import { isBrokerRequest } from '../../api/realtime/emqxHooks';

const HOOK_SECRET = 'segredo-do-broker-de-teste';
const brokerHeaders = { Authorization: `Bearer ${HOOK_SECRET}` };

describe('realtime: HTTP auth/ACL hooks for an external broker (POST /api/mqtt/auth, /api/mqtt/acl)', () => {
  /** The "external" broker is another api's embedded one (as in externalBroker.test.ts). */
  let brokerApi: TestApi;
  let api: TestApi;
  let wsA: TestWorkspace;
  let wsB: TestWorkspace;
  let a1: TestOperator;
  let a2: TestOperator;

  before(async () => {
    brokerApi = await startTestApi();
    api = await startTestApi({ mqttUrl: `${brokerApi.url.replace(/^http/, 'ws')}/mqtt`, mqttHookSecret: HOOK_SECRET });
    wsA = await makeWorkspace(api.deps.knex);
    wsB = await makeWorkspace(api.deps.knex);
    a1 = await makeOperator(api.deps.knex, api.config.jwtSecret, wsA, 10);
    a2 = await makeOperator(api.deps.knex, api.config.jwtSecret, wsA, 3);
  });
  after(async () => {
    await api.close();
    await brokerApi.close();
  });

  const auth = (body: unknown) => api.request('POST', '/api/mqtt/auth', { body, headers: brokerHeaders });
  const acl = (body: unknown) => api.request('POST', '/api/mqtt/acl', { body, headers: brokerHeaders });
  const operatorAcl = (topic: string, action: string, workspaceId = wsA.id, username = String(a1.id)) =>
    acl({ clientid: 'c1', username, topic, action, role: 'operator', workspace_id: String(workspaceId) });

  it('allows an operator with their workspace token and hands the broker their attributes, exact ACL and token expiry', async () => {
    const res = await auth({ clientid: 'browser-1', username: String(a1.id), password: a1.token, peerhost: '127.0.0.1' });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.include({
      result: 'allow',
      is_superuser: false,
      client_attrs: { role: 'operator', workspace_id: String(wsA.id), operator_id: String(a1.id) },
    });
    expect(res.body.acl).to.deep.equal([
      { permission: 'allow', action: 'subscribe', topic: `eq ${topics.operator(wsA.id, a1.id)}` },
      { permission: 'allow', action: 'subscribe', topic: `eq ${topics.workspace(wsA.id)}` },
      { permission: 'deny', action: 'all', topic: '#' },
    ]);
    expect(res.body.expire_at).to.be.a('number').greaterThan(Date.now() / 1000);
  });

  it('allows the internal credential and nothing else under that name', async () => {
    const ok = await auth({ clientid: 'worker-1', username: 'internal', password: api.config.mqttInternalPassword });
    expect(ok.body).to.deep.include({ result: 'allow', is_superuser: false, client_attrs: { role: 'internal' } });
    const bad = await auth({ clientid: 'worker-1', username: 'internal', password: 'guess' });
    expect(bad.body).to.deep.equal({ result: 'deny' });
  });

  it('denies (200, never a 4xx the broker would skip) bad tokens, mismatched usernames, reserved characters, visitors and malformed bodies', async () => {
    const denied = [
      { clientid: 'c', username: String(a1.id), password: `${a1.token}x` },
      { clientid: 'c', username: String(a2.id), password: a1.token },
      { clientid: 'c/1', username: String(a1.id), password: a1.token },
      { clientid: 'c', username: `${a1.id}#`, password: a1.token },
      { clientid: 'c', username: 'visitor:v1', password: 'x' },
      { clientid: 'c', username: String(a1.id) },
      { username: String(a1.id), password: a1.token },
    ];
    for (const body of denied) {
      const res = await auth(body);
      expect(res.status, JSON.stringify(body)).to.equal(200);
      expect(res.body, JSON.stringify(body)).to.deep.equal({ result: 'deny' });
    }
    const notJsonObject = await api.request('POST', '/api/mqtt/auth', { body: ['x'], headers: brokerHeaders });
    expect(notJsonObject.body).to.deep.equal({ result: 'deny' });
  });

  it('allows an operator to subscribe to exactly their own topic and their workspace topic', async () => {
    expect((await operatorAcl(topics.operator(wsA.id, a1.id), 'subscribe')).body).to.deep.equal({ result: 'allow' });
    expect((await operatorAcl(topics.workspace(wsA.id), 'subscribe')).body).to.deep.equal({ result: 'allow' });
  });

  it("denies other workspaces, other operators, wildcards and every operator publish", async () => {
    const denied: Array<[string, string]> = [
      [topics.workspace(wsB.id), 'subscribe'],
      [topics.operator(wsA.id, a2.id), 'subscribe'],
      [`ws/${wsA.id}/#`, 'subscribe'],
      ['#', 'subscribe'],
      [topics.workspace(wsA.id), 'publish'],
      [topics.operator(wsA.id, a1.id), 'publish'],
    ];
    for (const [topic, action] of denied) {
      const res = await operatorAcl(topic, action);
      expect(res.status).to.equal(200);
      expect(res.body, `${action} ${topic}`).to.deep.equal({ result: 'deny' });
    }
    // The workspace comes from the attributes our auth hook set, not from what the topic claims.
    expect((await operatorAcl(topics.workspace(wsB.id), 'subscribe', wsB.id, String(a1.id))).body).to.deep.equal({ result: 'allow' });
    expect((await operatorAcl(topics.workspace(wsB.id), 'subscribe', wsA.id, String(a1.id))).body).to.deep.equal({ result: 'deny' });
  });

  it('allows the internal client to publish, and denies requests without the attributes set at authentication', async () => {
    expect((await acl({ clientid: 'w', username: 'internal', role: 'internal', topic: topics.workspace(wsA.id), action: 'publish' })).body).to.deep.equal({
      result: 'allow',
    });
    const nobody = [
      { clientid: 'w', username: 'internal', topic: topics.workspace(wsA.id), action: 'publish' },
      { clientid: 'c', username: String(a1.id), topic: topics.workspace(wsA.id), action: 'subscribe', role: 'operator' },
      { clientid: 'c', username: String(a1.id), topic: topics.workspace(wsA.id), action: 'subscribe', role: 'operator', workspace_id: '${client_attrs.workspace_id}' },
      { clientid: 'c', username: String(a1.id), topic: topics.workspace(wsA.id), action: 'all', role: 'operator', workspace_id: String(wsA.id) },
      {},
    ];
    for (const body of nobody) {
      const res = await acl(body);
      expect(res.status).to.equal(200);
      expect(res.body, JSON.stringify(body)).to.deep.equal({ result: 'deny' });
    }
  });

  it('denies (200, so EMQX fails closed) a request without the broker’s shared secret, even with a valid token', async () => {
    const body = { clientid: 'browser-1', username: String(a1.id), password: a1.token };
    const aclBody = { clientid: 'c1', username: String(a1.id), topic: topics.operator(wsA.id, a1.id), action: 'subscribe', role: 'operator', workspace_id: String(wsA.id) };
    expect((await auth(body)).body.result, 'with the secret').to.equal('allow');
    const refused: Array<Record<string, string>> = [{}, { Authorization: 'Bearer errado' }, { Authorization: HOOK_SECRET }, { Authorization: `Basic ${HOOK_SECRET}` }, { Authorization: `Bearer ${HOOK_SECRET}x` }];
    for (const headers of refused) {
      const a = await api.request('POST', '/api/mqtt/auth', { body, headers });
      expect(a.status, JSON.stringify(headers)).to.equal(200);
      expect(a.body, JSON.stringify(headers)).to.deep.equal({ result: 'deny' });
      const b = await api.request('POST', '/api/mqtt/acl', { body: aclBody, headers });
      expect(b.body, JSON.stringify(headers)).to.deep.equal({ result: 'deny' });
    }
  });

  it('compares the secret exactly (Bearer scheme, whole value)', () => {
    const config = { mqttHookSecret: HOOK_SECRET };
    expect(isBrokerRequest(config, `Bearer ${HOOK_SECRET}`)).to.equal(true);
    for (const h of [undefined, '', 'Bearer', `Bearer ${HOOK_SECRET} `, `bearer${HOOK_SECRET}`, `Bearer ${HOOK_SECRET.slice(0, -1)}`]) expect(isBrokerRequest(config, h), String(h)).to.equal(false);
    expect(isBrokerRequest({ mqttHookSecret: undefined }, 'Bearer ')).to.equal(false);
  });
});

describe('realtime: the broker hooks are off unless an external broker with a shared secret is configured', () => {
  it('answers 404 with the embedded broker, and with MQTT_URL but no MQTT_HOOK_SECRET', async () => {
    const embedded = await startTestApi({ mqttHookSecret: HOOK_SECRET });
    const noSecret = await startTestApi({ mqttUrl: `${embedded.url.replace(/^http/, 'ws')}/mqtt` });
    try {
      const ws = await makeWorkspace(embedded.deps.knex);
      const op = await makeOperator(embedded.deps.knex, embedded.config.jwtSecret, ws, 10);
      for (const api of [embedded, noSecret]) {
        const a = await api.request('POST', '/api/mqtt/auth', { body: { clientid: 'c', username: String(op.id), password: op.token }, headers: brokerHeaders });
        expect(a.status, JSON.stringify(a.body)).to.equal(404);
        expect(a.body.errors[0].type).to.equal('NotFoundError');
        const b = await api.request('POST', '/api/mqtt/acl', { body: { clientid: 'c', username: 'internal', role: 'internal', topic: 'x', action: 'publish' }, headers: brokerHeaders });
        expect(b.status).to.equal(404);
      }
    } finally {
      await noSecret.close();
      await embedded.close();
    }
  });
});
