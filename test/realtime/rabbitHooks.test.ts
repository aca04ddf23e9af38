import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { makeWidget, firstContact, type TestVisitor, type TestWidget } from '../widget/helpers';
import { topicOf } from '../../api/realtime/rabbitHooks';

const HOOK_SECRET = 'segredo-do-rabbitmq-de-teste';

/** The routing key RabbitMQ's MQTT plugin sends for an MQTT topic (`/` and `.` swapped, `+` as `*`). */
const key = (topic: string) => topic.replace(/[./]/g, (c) => (c === '/' ? '.' : '/')).replace(/\+/g, '*');

// RabbitMQ's HTTP auth backend posts forms and reads `allow`/`deny` (docs/scaling.md); these are the
// requests it made in a run against RabbitMQ 3.10 with rabbitmq_mqtt and rabbitmq_web_mqtt.
describe('realtime: RabbitMQ HTTP auth backend on /api/mqtt/auth and /api/mqtt/acl (form dialect)', () => {
  let brokerApi: TestApi;
  let api: TestApi;
  let wsA: TestWorkspace;
  let wsB: TestWorkspace;
  let a1: TestOperator;
  let a2: TestOperator;
  let b1: TestOperator;
  let widget: TestWidget;
  let visitor: TestVisitor;

  before(async function () {
    this.timeout(60_000);
    // The "external" broker is another api's embedded one (as in hooks.test.ts): only the hooks are under test.
    brokerApi = await startTestApi();
    api = await startTestApi({ mqttUrl: `${brokerApi.url.replace(/^http/, 'ws')}/mqtt`, mqttHookSecret: HOOK_SECRET });
    wsA = await makeWorkspace(api.deps.knex);
    wsB = await makeWorkspace(api.deps.knex);
    a1 = await makeOperator(api.deps.knex, api.config.jwtSecret, wsA, 10);
    a2 = await makeOperator(api.deps.knex, api.config.jwtSecret, wsA, 3);
    b1 = await makeOperator(api.deps.knex, api.config.jwtSecret, wsB, 10);
    widget = await makeWidget(api, a1);
    visitor = await firstContact(api, widget);
  });
  after(async () => {
    await api.close();
    await brokerApi.close();
  });

  const post = async (path: string, fields: Record<string, string>, secret = HOOK_SECRET) => {
    const res = await fetch(`${api.url}/api/mqtt/${path}?secret=${encodeURIComponent(secret)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    return { status: res.status, text: await res.text() };
  };
  const user = (username: string, password: string, clientId = 'c1', secret?: string) => post('auth', { username, password, vhost: '/', client_id: clientId }, secret);
  const topic = (username: string, mqttTopic: string, permission: 'read' | 'write' = 'read') =>
    post('acl', { username, vhost: '/', resource: 'topic', name: 'amq.topic', permission, tags: '', routing_key: key(mqttTopic), 'variable_map.client_id': 'c1' });
  const resource = (username: string, type: string, name: string, permission: string, clientId = 'c1') =>
    post('acl', { username, vhost: '/', resource: type, name, permission, tags: '', client_id: clientId });

  it('maps routing keys back to topics', () => {
    expect(topicOf('ws.3.op.12')).to.equal('ws/3/op/12');
    expect(topicOf('a/b.c')).to.equal('a.b/c');
  });

  it('CONNECT: allows an operator with their workspace token, the internal credential and a visitor with their token; denies the rest', async () => {
    expect(await user(String(a1.id), a1.token)).to.deep.equal({ status: 200, text: 'allow' });
    expect((await user('internal', api.config.mqttInternalPassword)).text).to.equal('allow');
    expect((await user(`visitor:${visitor.id}`, visitor.token)).text).to.equal('allow');
    expect((await user(String(a2.id), a1.token)).text).to.equal('deny');
    expect((await user(String(a1.id), `${a1.token}x`)).text).to.equal('deny');
    expect((await user('internal', 'palpite')).text).to.equal('deny');
    expect((await user(`visitor:${visitor.id}`, 'x'.repeat(43))).text).to.equal('deny');
    expect((await user(String(a1.id), a1.token, 'c/1')).text, 'reserved character in the client id').to.equal('deny');
  });

  it('denies every request without the broker secret in its URL, whatever it carries', async () => {
    expect(await user(String(a1.id), a1.token, 'c1', 'outro')).to.deep.equal({ status: 200, text: 'deny' });
    expect((await post('acl', { username: 'internal', resource: 'topic', permission: 'write', routing_key: 'ws.1.all' }, '')).text).to.equal('deny');
  });

  it('SUBSCRIBE: an operator reads their own topic and their workspace’s, nothing of a colleague, another workspace or a wildcard', async () => {
    expect((await topic(String(a1.id), `ws/${wsA.id}/op/${a1.id}`)).text).to.equal('allow');
    expect((await topic(String(a1.id), `ws/${wsA.id}/all`)).text).to.equal('allow');
    expect((await topic(String(a1.id), `ws/${wsA.id}/op/${a2.id}`)).text).to.equal('deny');
    expect((await topic(String(a1.id), `ws/${wsB.id}/all`)).text, 'not a member of B').to.equal('deny');
    expect((await topic(String(b1.id), `ws/${wsA.id}/op/${b1.id}`)).text).to.equal('deny');
    expect((await topic(String(a1.id), `ws/${wsA.id}/op/+`)).text).to.equal('deny');
    expect((await topic(String(a1.id), `ws/${wsA.id}/#`)).text).to.equal('deny');
    expect((await topic(String(a1.id), '#')).text).to.equal('deny');
  });

  it('PUBLISH: only server processes publish; browsers may not even write to the exchange', async () => {
    expect((await topic(String(a1.id), `ws/${wsA.id}/op/${a1.id}`, 'write')).text).to.equal('deny');
    expect((await topic('internal', `ws/${wsA.id}/op/${a1.id}`, 'write')).text).to.equal('allow');
    expect((await resource(String(a1.id), 'exchange', 'amq.topic', 'write')).text).to.equal('deny');
    expect((await resource(String(a1.id), 'exchange', 'amq.topic', 'read')).text).to.equal('allow');
    expect((await resource('internal', 'exchange', 'amq.topic', 'write')).text).to.equal('allow');
  });

  it('a browser uses its own session queue only', async () => {
    for (const permission of ['configure', 'read', 'write']) {
      expect((await resource(String(a1.id), 'queue', 'mqtt-subscription-c1qos1', permission)).text).to.equal('allow');
    }
    expect((await resource(String(a1.id), 'queue', 'mqtt-subscription-c2qos1', 'read', 'c1')).text).to.equal('deny');
    expect((await resource(String(a1.id), 'queue', 'outra-fila', 'read')).text).to.equal('deny');
    expect((await post('acl', { username: String(a1.id), vhost: '/', ip: '127.0.0.1', tags: '', client_id: 'c1' })).text, 'vhost').to.equal('allow');
  });

  it('a widget visitor reads the topic of their own conversation only', async () => {
    const own = `widget/${widget.identifier}/${visitor.id}`;
    expect((await topic(`visitor:${visitor.id}`, own)).text).to.equal('allow');
    expect((await topic(`visitor:${visitor.id}`, own, 'write')).text).to.equal('deny');
    const other = await firstContact(api, widget, 'Oi');
    expect((await topic(`visitor:${visitor.id}`, `widget/${widget.identifier}/${other.id}`)).text).to.equal('deny');
    expect((await topic(`visitor:${visitor.id}`, `widget/outro/${visitor.id}`)).text).to.equal('deny');
    expect((await topic(`visitor:${visitor.id}`, `ws/${wsA.id}/all`)).text).to.equal('deny');
  });

  it('a deactivated member’s SUBSCRIBE is refused (the membership read of the token check)', async () => {
    const gone = await makeOperator(api.deps.knex, api.config.jwtSecret, wsA, 3);
    expect((await topic(String(gone.id), `ws/${wsA.id}/op/${gone.id}`)).text).to.equal('allow');
    await api.deps.knex('workspace_members').where({ workspaceId: wsA.id, operatorId: gone.id }).update({ isActive: false });
    await new Promise((r) => setTimeout(r, 200));
    expect((await topic(String(gone.id), `ws/${wsA.id}/op/${gone.id}`)).text).to.equal('deny');
  });
});
