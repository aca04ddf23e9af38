import { expect } from 'chai';
import type { MqttClient } from 'mqtt';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator } from '../helpers/factories';
import { adapterFor, type ChannelRecord, type OutboundMessage } from '../../api/channels/adapter';
import { topics } from '../../api/realtime/publisher';
import { Clients, inbox, sleep, subscribeCodes, waitFor, type Received } from '../realtime/mqttClients';
import { download } from '../assets/helpers';
import { firstContact, makeWidget, type TestVisitor, type TestWidget } from '../widget/helpers';

describe('widget channel adapter: agent messages to the visitor’s topic', () => {
  let api: TestApi;
  let clients: Clients;
  let owner: TestOperator;
  let widget: TestWidget;
  let channel: ChannelRecord;
  let visitor: TestVisitor;
  let listener: MqttClient;
  let everything: Received[];

  before(async () => {
    api = await startTestApi();
    clients = new Clients(api.url);
    const ws = await makeWorkspace(api.deps.knex);
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10, { name: 'Bruna' });
    widget = await makeWidget(api, owner);
    visitor = await firstContact(api, widget, 'Oi');
    const row = await api.deps.knex('channels').where({ id: widget.id }).first();
    channel = { id: row.id, workspaceId: row.workspaceId, type: 'widget', platformId: 4, identifier: row.identifier, description: row.description, name: row.name, config: {} };
  });
  beforeEach(async () => {
    // The internal credential hears every widget topic: proof that nothing went anywhere else.
    listener = await clients.connect('internal', api.config.mqttInternalPassword);
    await subscribeCodes(listener, ['widget/#']);
    everything = inbox(listener);
  });
  afterEach(() => clients.endAll());
  after(() => api.close());

  const outbound = (over: Partial<OutboundMessage>): OutboundMessage => ({
    messageId: 101,
    conversationId: visitor.conversationId,
    recipient: visitor.id,
    content: [{ insert: 'Bom dia!\n', attributes: { bold: true } }],
    text: 'Bom dia!',
    operator: { id: owner.id, name: 'Bruna', avatar: null },
    createdAt: new Date('2026-11-22T10:00:00Z'),
    type: 0,
    idempotencyKey: 'balcao-msg-101',
    ...over,
  });

  it('is registered for the widget type, with no reply and no delete', () => {
    const adapter = adapterFor('widget');
    expect(adapter).to.not.equal(undefined);
    expect(adapter).to.include({ type: 'widget', canReply: false, canDelete: false });
  });

  it('publishes chat.widgetNewMessage on widget/{identifier}/{visitorId} and answers the external id w-<messageId>', async () => {
    const visitorClient = await clients.connect(`visitor:${visitor.id}`, visitor.token);
    await subscribeCodes(visitorClient, [topics.widget(widget.identifier, visitor.id)]);
    const received = inbox(visitorClient);

    const result = await adapterFor('widget')!.send(api.deps, channel, outbound({}));
    expect(result).to.deep.equal({ externalId: 'w-101' });
    await waitFor(() => received.length === 1);
    expect(received[0].topic).to.equal(topics.widget(widget.identifier, visitor.id));
    expect(received[0].envelope.event).to.equal('chat.widgetNewMessage');
    expect(received[0].envelope.data).to.deep.equal({
      id: 101,
      content: [{ insert: 'Bom dia!\n' }],
      type: 0,
      createdAt: '2026-11-22T10:00:00.000Z',
      sender: 'operator',
      operator: { name: 'Bruna', avatar: null },
    });
    await waitFor(() => everything.length === 1);
  });

  it('sends file entries as items with a signed download URL', async () => {
    const up = new FormData();
    up.append('file0', new Blob(['relatório,valor\n1,2\n']), 'relatorio.csv');
    const uploaded = (await fetch(`${api.url}/api/assets/upload`, { method: 'POST', body: up, headers: { Authorization: `Bearer ${owner.token}` } }).then((r) => r.json())) as { data: Array<{ key: string; fileName: string; mime: string; size: number }> };
    const file = uploaded.data[0];
    await adapterFor('widget')!.send(api.deps, channel, outbound({ messageId: 102, content: [{ file: { key: file.key, fileName: file.fileName, mime: file.mime, size: file.size } }] }));
    await waitFor(() => everything.length === 1);
    const item = (everything[0].envelope.data as { content: Array<{ file: { url: string } }> }).content[0];
    expect(item.file).to.include({ fileName: 'relatorio.csv', size: file.size });
    expect(item.file).to.not.have.property('key');
    expect((await download(api, item.file.url)).status).to.equal(200);
  });

  it('refuses private notes and system lines: nothing is published anywhere', async () => {
    const adapter = adapterFor('widget')!;
    for (const type of [2, 1]) {
      const err = await adapter.send(api.deps, channel, outbound({ messageId: 200 + type, type })).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err, `type ${type}`).to.be.instanceOf(Error);
    }
    await adapter.send(api.deps, channel, outbound({ messageId: 203, type: 3 }));
    await waitFor(() => everything.length === 1);
    await sleep(150);
    expect(everything.map((r) => (r.envelope.data as { id: number }).id)).to.deep.equal([203]);
    expect((everything[0].envelope.data as { sender: string }).sender).to.equal('bot');
  });

  it('publishes chat.composing to the visitor', async () => {
    await adapterFor('widget')!.composing!(api.deps, channel, visitor.id);
    await waitFor(() => everything.length === 1);
    expect(everything[0]).to.deep.include({ topic: topics.widget(widget.identifier, visitor.id) });
    expect(everything[0].envelope.event).to.equal('chat.composing');
  });

  describe('through the inbox (POST /api/inbox/messages)', () => {
    it('delivers an agent reply to the visitor live and keeps private notes in the team', async () => {
      const v = await firstContact(api, widget, 'Preciso de ajuda');
      const visitorClient = await clients.connect(`visitor:${v.id}`, v.token);
      await subscribeCodes(visitorClient, [topics.widget(widget.identifier, v.id)]);
      const received = inbox(visitorClient);

      const listed = await api.request('GET', '/api/inbox?segmentId=all', { token: owner.token });
      const conversation = listed.body.data.find((c: { id: number }) => c.id === v.conversationId);
      expect(conversation).to.deep.include({ platformId: 4, workspacePlatformId: widget.id, identifier: v.id });

      const note = await api.request('POST', '/api/inbox/messages', { token: owner.token, body: { id: v.conversationId, content: [{ insert: 'nota interna\n' }], type: 2 } });
      expect(note.status, JSON.stringify(note.body)).to.equal(201);
      const reply = await api.request('POST', '/api/inbox/messages', { token: owner.token, body: { id: v.conversationId, content: [{ insert: 'Claro! Em que posso ajudar?\n' }], type: 0 } });
      expect([200, 201]).to.include(reply.status);

      await waitFor(() => received.length === 1);
      await sleep(150);
      expect(received).to.have.length(1);
      expect(received[0].envelope.data).to.deep.include({ id: reply.body.data.id, content: [{ insert: 'Claro! Em que posso ajudar?\n' }], operator: { name: 'Bruna', avatar: null } });
      expect(JSON.stringify(everything)).to.not.contain('nota interna');
      const stored = await api.deps.knex('messages').where({ id: reply.body.data.id }).first('external_id', 'status');
      expect(stored).to.deep.equal({ externalId: `w-${reply.body.data.id}`, status: 2 });

      const history = await api.request('GET', '/api/v1/widget/messages', { token: v.token });
      expect(history.body.data.map((m: { id: number }) => m.id)).to.not.include(note.body.data.id);
      expect(history.body.data.at(-1).id).to.equal(reply.body.data.id);
    });
  });
});
