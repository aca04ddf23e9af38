import { expect } from 'chai';
import type { Knex } from 'knex';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { Clients, inbox, sleep, subscribeCodes, waitFor } from '../realtime/mqttClients';
import { topics } from '../../api/realtime/publisher';
import { adapterFor, registerAdapter, unregisterAdapter } from '../../api/channels/adapter';
import { receiveInbound } from '../../api/inbound/receiveInbound';
import { delta, inboundMessage, makeChannel, makeConversation, makeGroup, type TestChannel } from './factories';
import { fakeAdapter, installAdapters } from './fakeAdapter';

describe('inbox messages: send, page, delete', function () {
  this.timeout(30_000);
  let api: TestApi;
  let knex: Knex;
  let ws: TestWorkspace;
  let owner: TestOperator;
  let agent: TestOperator;
  let telegram: TestChannel;
  let custom: TestChannel;
  let widget: TestChannel;
  const tg = fakeAdapter('telegram', { canReply: true, canDelete: true });
  const broken = fakeAdapter('custom', { canReply: false, canDelete: false });
  let restore: () => void;

  before(async () => {
    restore = installAdapters(tg, broken);
    broken.failing = true;
    api = await startTestApi();
    knex = api.deps.knex;
    ws = await makeWorkspace(knex);
    owner = await makeOperator(knex, api.config.jwtSecret, ws, 10);
    agent = await makeOperator(knex, api.config.jwtSecret, ws, 3);
    telegram = await makeChannel(knex, ws, 'telegram');
    custom = await makeChannel(knex, ws, 'custom');
    widget = await makeChannel(knex, ws, 'widget');
  });
  after(async () => {
    restore();
    await api.close();
  });

  const send = (token: string, body: unknown) => api.request('POST', '/api/inbox/messages', { token, body });

  it('stores an agent reply, hands it to the channel after commit, stores the external id and tells the team', async () => {
    const c = await makeConversation(api.deps, telegram, { name: 'Cliente Telegram' });
    const clients = new Clients(api.url);
    try {
      const client = await clients.connect(String(owner.id), owner.token);
      const received = inbox(client);
      await subscribeCodes(client, [topics.operator(ws.id, owner.id)]);
      const res = await send(owner.token, { id: c.conversationId, content: [{ insert: 'Bom dia!', attributes: { bold: true } }, { insert: '\n' }], type: 0 });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const m = res.body.data;
      expect(m).to.include({ type: 0, sender: 'operator', status: 2, externalId: `telegram-${m.id}`, text: 'Bom dia!', operatorId: owner.id, customerPlatformId: c.conversationId, isDeleted: false, isMedia: false });
      expect(m.content).to.deep.equal([{ insert: 'Bom dia!' }, { insert: '\n' }]);
      expect(m.Operator).to.deep.include({ id: owner.id, name: owner.name });
      expect(m.callMessage).to.deep.equal({ callId: c.callId });
      const sent = tg.sent.find((s) => s.messageId === m.id)!;
      expect(sent).to.deep.include({ conversationId: c.conversationId, recipient: c.visitor, text: 'Bom dia!', type: 0 });
      expect(sent.operator).to.deep.include({ id: owner.id, name: owner.name });

      await waitFor(() => received.find((r) => r.envelope.event === 'chat.messageStatus'));
      const events = received.map((r) => r.envelope.event);
      expect(events).to.deep.equal(['chat.newMessage', 'chat.messageStatus']);
      expect((received[0].envelope.data as { message: { id: number; status: number } }).message).to.include({ id: m.id, status: 1 });
      expect(received[1].envelope.data).to.deep.equal({ conversationId: c.conversationId, messageId: m.id, status: 2 });

      const call = await knex('calls').where({ id: c.callId }).first();
      expect(call.firstResponseAt).to.be.instanceOf(Date);
      expect(call).to.include({ responseCount: 1, waitingSince: null });
      const cp = await knex('customer_platforms').where({ id: c.conversationId }).first();
      expect(cp.hasNewMessages).to.equal(false);
      expect(cp.lastMessage).to.deep.include({ text: 'Bom dia!', sender: 'operator', type: 0 });
    } finally {
      await clients.endAll();
    }
  });

  it('keeps the message with status 1 when the adapter fails, and answers normally', async () => {
    const c = await makeConversation(api.deps, custom);
    const res = await send(owner.token, { id: c.conversationId, content: delta('Vai falhar'), type: 0 });
    expect(res.status).to.equal(201);
    expect(res.body.data).to.include({ status: 1, externalId: null });
    const page = await api.request('GET', `/api/inbox/messages?id=${c.conversationId}`, { token: owner.token });
    expect(page.body.data[0]).to.include({ id: res.body.data.id, status: 1, text: 'Vai falhar' });
  });

  it('answers normally when realtime publishing fails', async () => {
    const c = await makeConversation(api.deps, telegram);
    const original = api.deps.publisher.publish;
    api.deps.publisher.publish = async () => Promise.reject(new Error('broker fora'));
    try {
      const res = await send(owner.token, { id: c.conversationId, content: delta('Mesmo assim'), type: 0 });
      expect(res.status).to.equal(201);
      expect(res.body.data).to.include({ status: 2, text: 'Mesmo assim' });
      const resolved = await api.request('POST', `/api/inbox/all/${c.conversationId}`, { token: owner.token, body: { status: 'resolve' } });
      expect(resolved.status).to.equal(200);
    } finally {
      api.deps.publisher.publish = original;
    }
  });

  it('keeps the message with status 1 when the channel has no adapter', async () => {
    const previous = adapterFor('instagram');
    unregisterAdapter('instagram');
    try {
      const instagram = await makeChannel(knex, ws, 'instagram');
      const c = await makeConversation(api.deps, instagram);
      const res = await send(owner.token, { id: c.conversationId, content: delta('Sem adaptador'), type: 0 });
      expect(res.status).to.equal(201);
      expect(res.body.data).to.include({ status: 1, externalId: null });
    } finally {
      if (previous) registerAdapter(previous);
    }
  });

  it('never hands a private note to the channel nor publishes it on the widget topic, but tells the team', async () => {
    const c = await makeConversation(api.deps, widget);
    const t = await makeConversation(api.deps, telegram);
    const clients = new Clients(api.url);
    try {
      const spy = await clients.connect('internal', api.config.mqttInternalPassword);
      const onWidget = inbox(spy);
      expect(await subscribeCodes(spy, ['widget/#'])).to.deep.equal([1]);
      const teammate = await clients.connect(String(owner.id), owner.token);
      const team = inbox(teammate);
      await subscribeCodes(teammate, [topics.operator(ws.id, owner.id)]);
      const sentBefore = tg.sent.length;

      const note = await send(agent.token, { id: c.conversationId, content: delta('Cliente difícil, cuidado'), type: 2 });
      expect(note.status).to.equal(201);
      expect(note.body.data).to.include({ type: 2, status: 1, externalId: null });
      const tgNote = await send(agent.token, { id: t.conversationId, content: delta('Nota no Telegram'), type: 2 });
      expect(tgNote.status).to.equal(201);
      await waitFor(() => team.filter((r) => r.envelope.event === 'chat.newMessage').length >= 2);
      await sleep(300);
      expect(onWidget).to.deep.equal([]);
      expect(tg.sent.length).to.equal(sentBefore);
      const call = await knex('calls').where({ id: c.callId }).first();
      expect(call.firstResponseAt).to.equal(null);

      const page = await api.request('GET', `/api/inbox/messages?id=${c.conversationId}`, { token: owner.token });
      expect(page.body.data[0]).to.include({ type: 2, text: 'Cliente difícil, cuidado' });

      // The spy does hear the widget topic: a reply (type 0) reaches the visitor through the widget adapter.
      if (adapterFor('widget')) {
        await send(agent.token, { id: c.conversationId, content: delta('Resposta ao visitante'), type: 0 });
        await waitFor(() => onWidget.length > 0);
        await sleep(100);
        expect(onWidget.map((r) => r.topic)).to.deep.equal([topics.widget(widget.identifier, c.visitor)]);
        expect(JSON.stringify(onWidget[0].envelope.data)).to.not.contain('Cliente difícil');
      }
    } finally {
      await clients.endAll();
    }
  });

  it('reopens a resolved conversation with a new call when an agent writes to it', async () => {
    const c = await makeConversation(api.deps, telegram);
    await api.request('POST', `/api/inbox/archived/${c.conversationId}`, { token: owner.token, body: { status: 'resolve' } });
    const res = await send(owner.token, { id: c.conversationId, content: delta('Voltei'), type: 0 });
    expect(res.status).to.equal(201);
    const newCall = res.body.data.callMessage.callId;
    expect(newCall).to.not.equal(c.callId);
    const conv = await api.request('GET', `/api/inbox/conversations/${c.conversationId}`, { token: owner.token });
    expect(conv.body.data).to.include({ isFinished: false, callId: newCall });
    const [oldCall, call] = await knex('calls').whereIn('id', [c.callId, newCall]).orderBy('id');
    expect(call.protocol).to.be.above(oldCall.protocol);
    expect(call.firstResponseAt).to.be.instanceOf(Date);
  });

  it('replies to a message only where the channel allows it and only within the conversation', async () => {
    const c = await makeConversation(api.deps, telegram);
    const first = await knex('messages').where({ customerPlatformId: c.conversationId }).first('id', 'external_id');
    const ok = await send(owner.token, { id: c.conversationId, content: delta('Respondendo'), type: 0, replyTo: first.id });
    expect(ok.status).to.equal(201);
    expect(ok.body.data.replyTo).to.deep.include({ id: first.id, externalId: first.externalId, text: 'Olá' });
    expect(tg.sent.at(-1)!.replyToExternalId).to.equal(first.externalId);

    const w = await makeConversation(api.deps, widget);
    const wFirst = await knex('messages').where({ customerPlatformId: w.conversationId }).first('id');
    const refused = await send(owner.token, { id: w.conversationId, content: delta('x'), type: 0, replyTo: wFirst.id });
    expect(refused.status).to.equal(400);
    expect(refused.body.errors[0]).to.deep.include({ key: 'replyTo', descriptions: ['Não é possível responder mensagens neste canal.'] });
    const elsewhere = await send(owner.token, { id: c.conversationId, content: delta('x'), type: 0, replyTo: wFirst.id });
    expect(elsewhere.status).to.equal(400);
    expect(elsewhere.body.errors[0]).to.deep.include({ key: 'replyTo', descriptions: ['Mensagem não encontrada.'] });
  });

  it('sends uploaded files of the workspace as file entries with signed URLs, and refuses other keys', async () => {
    const c = await makeConversation(api.deps, telegram);
    await knex('stored_files').insert({ workspaceId: ws.id, key: `k-${c.conversationId}.pdf`, fileName: 'orcamento.pdf', mime: 'application/pdf', size: 1234 });
    const other = await makeWorkspace(knex);
    await knex('stored_files').insert({ workspaceId: other.id, key: `alheio-${c.conversationId}.pdf`, fileName: 'x.pdf', mime: 'application/pdf', size: 1 });
    const res = await send(owner.token, { id: c.conversationId, content: [{ file: { key: `k-${c.conversationId}.pdf`, fileName: 'trocado.exe', size: 1 } }], type: 0 });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.data).to.include({ isMedia: true, text: 'orcamento.pdf' });
    const file = res.body.data.content[0].file;
    expect(file).to.include({ key: `k-${c.conversationId}.pdf`, fileName: 'orcamento.pdf', mime: 'application/pdf', size: 1234 });
    expect(file.url).to.match(/\/api\/assets\/download\/.+\?exp=\d+&sig=/);
    for (const key of [`alheio-${c.conversationId}.pdf`, 'nao-existe']) {
      const bad = await send(owner.token, { id: c.conversationId, content: [{ file: { key } }], type: 0 });
      expect(bad.status).to.equal(400);
      expect(bad.body.errors[0].key).to.equal('content');
    }
  });

  it('rejects bad send bodies field by field, and unknown or invisible conversations with 404', async () => {
    const c = await makeConversation(api.deps, telegram);
    const keysOf = async (body: unknown) => {
      const res = await send(owner.token, body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      return res.body.errors.map((e: { key: string }) => e.key).sort();
    };
    expect(await keysOf({})).to.deep.equal(['content', 'id', 'type']);
    expect(await keysOf({ id: 'x', content: 'oi', type: '0' })).to.deep.equal(['content', 'id', 'type']);
    expect(await keysOf({ id: c.conversationId, content: [], type: 0 })).to.deep.equal(['content']);
    expect(await keysOf({ id: c.conversationId, content: delta('   '), type: 0 })).to.deep.equal(['content']);
    expect(await keysOf({ id: c.conversationId, content: [{ insert: 'a'.repeat(20_001) }], type: 0 })).to.deep.equal(['content']);
    expect(await keysOf({ id: c.conversationId, content: [{ insert: { image: 'http://x' } }], type: 0 })).to.deep.equal(['content']);
    expect(await keysOf({ id: c.conversationId, content: [{ insert: 'a' }, { file: { key: 'k' } }], type: 0 })).to.deep.equal(['content']);
    expect(await keysOf({ id: c.conversationId, content: delta('oi'), type: 1 })).to.deep.equal(['type']);
    expect(await keysOf({ id: c.conversationId, content: delta('oi'), type: 0, replyTo: 'x' })).to.deep.equal(['replyTo']);
    const ok = await send(owner.token, { id: c.conversationId, content: [{ insert: 'a'.repeat(20_000) }], type: 2 });
    expect(ok.status).to.equal(201);

    const stranger = await makeOperator(knex, api.config.jwtSecret, await makeWorkspace(knex), 10);
    expect((await send(stranger.token, { id: c.conversationId, content: delta('oi'), type: 0 })).status).to.equal(404);
    expect((await send(owner.token, { id: 999_999_999, content: delta('oi'), type: 0 })).status).to.equal(404);
    const group = await makeGroup(knex, ws);
    const hidden = await makeConversation(api.deps, telegram, { groupId: group });
    const res = await send(agent.token, { id: hidden.conversationId, content: delta('oi'), type: 0 });
    expect(res.status).to.equal(404);
    expect(await knex('messages').where({ customerPlatformId: hidden.conversationId, sender: 'operator' }).first()).to.equal(undefined);
  });

  it('pages messages newest first by offset, by `before` and by call, with private notes for operators', async () => {
    const c = await makeConversation(api.deps, telegram);
    const visitor = c.visitor;
    for (let i = 1; i <= 4; i++) await receiveInbound(api.deps, inboundMessage(telegram, { identity: { externalId: visitor }, content: delta(`cliente ${i}`) }));
    await send(owner.token, { id: c.conversationId, content: delta('nota'), type: 2 });
    await api.request('POST', `/api/inbox/all/${c.conversationId}`, { token: owner.token, body: { status: 'resolve' } });
    await receiveInbound(api.deps, inboundMessage(telegram, { identity: { externalId: visitor }, content: delta('novo atendimento') }));

    const texts = (res: { body: { data: { text: string }[] } }) => res.body.data.map((m) => m.text);
    const all = await api.request('GET', `/api/inbox/messages?id=${c.conversationId}`, { token: owner.token });
    expect(texts(all)).to.deep.equal(['novo atendimento', 'nota', 'cliente 4', 'cliente 3', 'cliente 2', 'cliente 1', 'Olá']);
    expect(all.body.matchCount).to.equal(7);
    const page1 = await api.request('GET', `/api/inbox/messages?id=${c.conversationId}&limit=3`, { token: owner.token });
    expect(texts(page1)).to.deep.equal(['novo atendimento', 'nota', 'cliente 4']);
    const page2 = await api.request('GET', `/api/inbox/messages?id=${c.conversationId}&limit=3&before=${page1.body.data[2].id}`, { token: owner.token });
    expect(texts(page2)).to.deep.equal(['cliente 3', 'cliente 2', 'cliente 1']);
    expect(page2.body.matchCount).to.equal(7);
    const byOffset = await api.request('GET', `/api/inbox/messages?id=${c.conversationId}&limit=3&offset=3`, { token: owner.token });
    expect(texts(byOffset)).to.deep.equal(texts(page2));
    const firstCall = await api.request('GET', `/api/inbox/messages?id=${c.conversationId}&callId=${c.callId}`, { token: owner.token });
    expect(texts(firstCall)).to.deep.equal(['nota', 'cliente 4', 'cliente 3', 'cliente 2', 'cliente 1', 'Olá']);
    expect(firstCall.body.matchCount).to.equal(6);
    const customer = all.body.data.find((m: { sender: string }) => m.sender === 'customer');
    expect(customer).to.include({ sender: 'customer', Operator: null, type: 0, status: 2 });

    const other = await makeConversation(api.deps, telegram);
    const foreignBefore = await api.request('GET', `/api/inbox/messages?id=${c.conversationId}&before=${other.messageId}`, { token: owner.token });
    expect(foreignBefore.body.data).to.deep.equal([]);
    for (const qs of ['', 'id=abc', `id=${c.conversationId}&limit=x`, `id=${c.conversationId}&before=-1`, `id=${c.conversationId}&callId=0`]) {
      const res = await api.request('GET', `/api/inbox/messages?${qs}`, { token: owner.token });
      expect(res.status, qs).to.equal(400);
    }
    expect((await api.request('GET', `/api/inbox/messages?id=999999999`, { token: owner.token })).status).to.equal(404);
  });

  it('deletes on channels that can, refuses elsewhere with the contract text, and tells the team', async () => {
    const c = await makeConversation(api.deps, telegram);
    const mine = await send(owner.token, { id: c.conversationId, content: delta('apagar isto'), type: 0 });
    const clients = new Clients(api.url);
    try {
      const client = await clients.connect(String(owner.id), owner.token);
      const received = inbox(client);
      await subscribeCodes(client, [topics.operator(ws.id, owner.id)]);
      const del = await api.request('DELETE', `/api/inbox/messages/${mine.body.data.id}`, { token: owner.token });
      expect(del.status).to.equal(200);
      expect(del.body.data).to.include({ id: mine.body.data.id, isDeleted: true, text: '' });
      expect(del.body.data.content).to.deep.equal([]);
      expect(tg.deleted).to.include(mine.body.data.externalId);
      await waitFor(() => received.find((r) => r.envelope.event === 'chat.messageStatus'));
      expect(received[0].envelope.data).to.deep.include({ conversationId: c.conversationId, messageId: mine.body.data.id, isDeleted: true });
    } finally {
      await clients.endAll();
    }
    const again = await api.request('DELETE', `/api/inbox/messages/${mine.body.data.id}`, { token: owner.token });
    expect(again.status).to.equal(200);

    const customerMessage = await api.request('DELETE', `/api/inbox/messages/${c.messageId}`, { token: owner.token });
    expect(customerMessage.status).to.equal(400);
    expect(customerMessage.body.errors[0].descriptions).to.deep.equal(['Não é possível apagar mensagens do cliente.']);

    const w = await makeConversation(api.deps, widget);
    const reply = await send(owner.token, { id: w.conversationId, content: delta('no widget'), type: 0 });
    const refused = await api.request('DELETE', `/api/inbox/messages/${reply.body.data.id}`, { token: owner.token });
    expect(refused.status).to.equal(400);
    expect(refused.body.errors[0].descriptions).to.deep.equal(['Não é possível apagar mensagens neste canal.']);
    const note = await send(owner.token, { id: w.conversationId, content: delta('nota'), type: 2 });
    expect((await api.request('DELETE', `/api/inbox/messages/${note.body.data.id}`, { token: owner.token })).body.data.isDeleted).to.equal(true);

    const stranger = await makeOperator(knex, api.config.jwtSecret, await makeWorkspace(knex), 10);
    expect((await api.request('DELETE', `/api/inbox/messages/${reply.body.data.id}`, { token: stranger.token })).status).to.equal(404);
    expect((await api.request('DELETE', '/api/inbox/messages/abc', { token: owner.token })).status).to.equal(404);
    const group = await makeGroup(knex, ws);
    const hidden = await makeConversation(api.deps, telegram, { groupId: group });
    const hiddenReply = await send(owner.token, { id: hidden.conversationId, content: delta('oculta'), type: 0 });
    expect((await api.request('DELETE', `/api/inbox/messages/${hiddenReply.body.data.id}`, { token: agent.token })).status).to.equal(404);
  });
});
