import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator } from '../helpers/factories';
import { topics } from '../../api/realtime/publisher';
import { Clients, closed, inbox, sleep, subscribeCodes, waitFor } from '../realtime/mqttClients';
import { firstContact, makeWidget, type TestVisitor, type TestWidget } from './helpers';

describe('realtime: widget visitors on the broker', () => {
  let api: TestApi;
  let clients: Clients;
  let owner: TestOperator;
  let widget: TestWidget;
  let ana: TestVisitor;
  let bia: TestVisitor;

  before(async () => {
    api = await startTestApi();
    clients = new Clients(api.url);
    const ws = await makeWorkspace(api.deps.knex);
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
    widget = await makeWidget(api, owner);
    ana = await firstContact(api, widget, 'Oi, sou a Ana');
    bia = await firstContact(api, widget, 'Oi, sou a Bia');
  });
  afterEach(() => clients.endAll());
  after(() => api.close());

  const visitor = (v: TestVisitor, token = v.token) => clients.connect(`visitor:${v.id}`, token);

  it('accepts a visitor with their token and lets them subscribe to their own topic only', async () => {
    const client = await visitor(ana);
    const own = topics.widget(widget.identifier, ana.id);
    const codes = await subscribeCodes(client, [
      own,
      topics.widget(widget.identifier, bia.id),
      `widget/${widget.identifier}/#`,
      `widget/${widget.identifier}/+`,
      '#',
      topics.workspace(widget.workspaceId),
      topics.operator(widget.workspaceId, owner.id),
    ]);
    expect(codes).to.deep.equal([1, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80]);

    const received = inbox(client);
    await api.broker.publisher.publish(topics.widget(widget.identifier, bia.id), 'chat.widgetNewMessage', { id: 1, content: [{ insert: 'para a Bia\n' }] });
    await api.broker.publisher.publish(own, 'chat.widgetNewMessage', { id: 2, content: [{ insert: 'para a Ana\n' }] });
    await waitFor(() => received.length === 1);
    await sleep(100);
    expect(received.map((r) => r.topic)).to.deep.equal([own]);
    expect(received[0].envelope).to.deep.include({ event: 'chat.widgetNewMessage' });
  });

  it('refuses (5) a wrong token, another visitor’s token, a malformed visitor id and a token with the id of someone else', async () => {
    expect(await clients.refusal(`visitor:${ana.id}`, 'A'.repeat(43))).to.equal(5);
    expect(await clients.refusal(`visitor:${ana.id}`, bia.token)).to.equal(5);
    expect(await clients.refusal('visitor:not-a-uuid', ana.token)).to.equal(5);
    expect(await clients.refusal('visitor:', ana.token)).to.equal(5);
    expect(await clients.refusal(String(owner.id), ana.token), 'a visitor token is no workspace token').to.equal(4);
    expect(await clients.refusal(`visitor:${ana.id}`, owner.token), 'a workspace token is no visitor token').to.equal(5);
  });

  it('never lets a visitor publish: the message is dropped and the connection closed', async () => {
    const listener = await visitor(bia);
    await subscribeCodes(listener, [topics.widget(widget.identifier, bia.id)]);
    const received = inbox(listener);
    const client = await visitor(ana);
    const gone = closed(client);
    client.publish(topics.widget(widget.identifier, bia.id), JSON.stringify({ event: 'chat.widgetNewMessage', data: { id: 9 } }), { qos: 1 });
    await gone;
    await sleep(150);
    expect(received).to.deep.equal([]);
  });

  it('keeps one client id per visitor: another identity cannot take a live session over', async () => {
    await clients.connect(`visitor:${ana.id}`, ana.token, 'widget-shared-id');
    expect(await clients.refusal(`visitor:${bia.id}`, bia.token, 'widget-shared-id')).to.equal(2);
  });

  it('ends with the channel: a deleted widget’s visitor cannot connect again', async () => {
    const ws = await makeWorkspace(api.deps.knex);
    const boss = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
    const doomed = await makeWidget(api, boss);
    const v = await firstContact(api, doomed);
    await visitor(v);
    await api.request('DELETE', `/api/integrations/widget/${doomed.id}`, { token: boss.token });
    expect(await clients.refusal(`visitor:${v.id}`, v.token)).to.equal(5);
  });

  it('answers the external broker hooks for visitors: their one topic as an exact ACL rule, denied otherwise', async () => {
    // The hooks answer only for an external broker with its shared secret (test/realtime/hooks.test.ts).
    Object.assign(api.config, { mqttUrl: 'ws://emqx.invalid/mqtt', mqttHookSecret: 'segredo' });
    const headers = { Authorization: 'Bearer segredo' };
    const allow = await api.request('POST', '/api/mqtt/auth', { headers, body: { clientid: 'c1', username: `visitor:${ana.id}`, password: ana.token } });
    expect(allow.body).to.deep.equal({
      result: 'allow',
      is_superuser: false,
      client_attrs: { role: 'visitor' },
      acl: [
        { permission: 'allow', action: 'subscribe', topic: `eq ${topics.widget(widget.identifier, ana.id)}` },
        { permission: 'deny', action: 'all', topic: '#' },
      ],
    });
    const deny = await api.request('POST', '/api/mqtt/auth', { headers, body: { clientid: 'c1', username: `visitor:${ana.id}`, password: bia.token } });
    expect(deny.body).to.deep.equal({ result: 'deny' });
    const acl = await api.request('POST', '/api/mqtt/acl', {
      headers,
      body: { clientid: 'c1', username: `visitor:${ana.id}`, topic: topics.widget(widget.identifier, ana.id), action: 'subscribe', role: 'visitor' },
    });
    expect(acl.body).to.deep.equal({ result: 'deny' });
  });
});
