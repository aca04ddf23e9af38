import { expect } from 'chai';
import type { Knex } from 'knex';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { Clients, inbox, sleep, subscribeCodes, waitFor, type Received } from '../realtime/mqttClients';
import { topics } from '../../api/realtime/publisher';
import { makeChannel, makeConversation, makeGroup, makeLabel, type TestChannel } from './factories';

describe('inbox conversation calls: get, read, resolve/open, favourites, tags, assignment, transfers', function () {
  this.timeout(30_000);
  let api: TestApi;
  let knex: Knex;
  let ws: TestWorkspace;
  let owner: TestOperator;
  let master: TestOperator;
  let agent: TestOperator;
  let restricted: TestOperator;
  let stranger: TestOperator;
  let channel: TestChannel;
  let group: number;

  before(async () => {
    api = await startTestApi();
    knex = api.deps.knex;
    ws = await makeWorkspace(knex);
    owner = await makeOperator(knex, api.config.jwtSecret, ws, 10);
    master = await makeOperator(knex, api.config.jwtSecret, ws, 6);
    agent = await makeOperator(knex, api.config.jwtSecret, ws, 3);
    restricted = await makeOperator(knex, api.config.jwtSecret, ws, 2);
    stranger = await makeOperator(knex, api.config.jwtSecret, await makeWorkspace(knex), 10);
    channel = await makeChannel(knex, ws);
    group = await makeGroup(knex, ws, [agent.id]);
  });
  after(() => api.close());

  const post = (path: string, token: string, body?: unknown) => api.request('POST', path, { token, body });

  async function listen(...ops: TestOperator[]): Promise<{ events: Map<number, Received[]>; close: () => Promise<void> }> {
    const clients = new Clients(api.url);
    const events = new Map<number, Received[]>();
    for (const op of ops) {
      const client = await clients.connect(String(op.id), op.token);
      events.set(op.id, inbox(client));
      await subscribeCodes(client, [topics.operator(ws.id, op.id)]);
    }
    return { events, close: () => clients.endAll() };
  }
  const names = (list: Received[] | undefined) => (list ?? []).map((r) => r.envelope.event);

  it('answers a conversation in the contract shape', async () => {
    const c = await makeConversation(api.deps, channel, { name: 'Paula' });
    const res = await api.request('GET', `/api/inbox/conversations/${c.conversationId}`, { token: owner.token });
    expect(res.status).to.equal(200);
    const call = await knex('calls').where({ id: c.callId }).first();
    expect(res.body.data).to.deep.include({
      id: c.conversationId,
      callId: c.callId,
      protocol: call.protocol,
      name: 'Paula',
      phone: null,
      email: null,
      avatar: null,
      platformId: 4,
      workspacePlatformId: channel.id,
      channelName: 'Canal widget',
      channelProvider: null,
      operatorId: null,
      groupId: null,
      botId: null,
      botName: null,
      temporalUrl: null,
      tags: [],
      isFinished: false,
      starred: false,
      hasNewMessages: true,
      identifier: c.visitor,
    });
    expect(res.body.data.lastMessage).to.deep.include({ text: 'Olá', type: 0, sender: 'customer' });
    expect(Object.keys(res.body.data).sort()).to.deep.equal(
      ['id', 'callId', 'protocol', 'customerId', 'name', 'phone', 'email', 'avatar', 'platformId', 'workspacePlatformId', 'channelName', 'channelProvider', 'operatorId', 'groupId', 'botId', 'botName', 'temporalUrl', 'tags', 'stageId', 'isFinished', 'starred', 'hasNewMessages', 'lastMessage', 'lastMessageAt', 'identifier', 'createdAt'].sort(),
    );
    for (const [path, token] of [[`/api/inbox/conversations/${c.conversationId}`, stranger.token], ['/api/inbox/conversations/abc', owner.token], ['/api/inbox/conversations/999999999', owner.token]] as const) {
      const r = await api.request('GET', path, { token });
      expect(r.status, path).to.equal(404);
      expect(r.body.errors[0].type).to.equal('NotFoundError');
    }
  });

  it('marks a conversation read and lowers the counter', async () => {
    const c = await makeConversation(api.deps, channel);
    const before = (await post('/api/inbox/counter', owner.token)).body.data.all;
    const res = await post(`/api/inbox/conversations/${c.conversationId}/read`, owner.token);
    expect(res.status).to.equal(200);
    expect(res.body.data.hasNewMessages).to.equal(false);
    expect((await post('/api/inbox/counter', owner.token)).body.data.all).to.equal(before - 1);
    expect((await post(`/api/inbox/conversations/${c.conversationId}/read`, stranger.token)).status).to.equal(404);
  });

  it('resolves and reopens with a new call and protocol, publishing chat.callStatus; repeating changes nothing', async () => {
    const c = await makeConversation(api.deps, channel);
    const live = await listen(owner);
    try {
      const resolved = await post(`/api/inbox/all/${c.conversationId}`, owner.token, { status: 'resolve' });
      expect(resolved.status).to.equal(200);
      expect(resolved.body.data).to.include({ isFinished: true, hasNewMessages: false, callId: c.callId });
      const call = await knex('calls').where({ id: c.callId }).first();
      expect(call.isFinished).to.equal(true);
      expect(call.finishedAt).to.be.instanceOf(Date);
      expect((await post(`/api/inbox/archived/${c.conversationId}`, owner.token, { status: 'resolve' })).body.data.isFinished).to.equal(true);

      const reopened = await post(`/api/inbox/archived/${c.conversationId}`, owner.token, { status: 'open' });
      expect(reopened.body.data.isFinished).to.equal(false);
      expect(reopened.body.data.callId).to.not.equal(c.callId);
      expect(reopened.body.data.protocol).to.be.above(call.protocol);
      await waitFor(() => names(live.events.get(owner.id)).length >= 2);
      await sleep(100);
      expect(names(live.events.get(owner.id))).to.deep.equal(['chat.callStatus', 'chat.callStatus']);
      const last = live.events.get(owner.id)!.at(-1)!.envelope.data as { conversation: { id: number; isFinished: boolean } };
      expect(last.conversation).to.include({ id: c.conversationId, isFinished: false });
    } finally {
      await live.close();
    }
    const segmentId = (await knex('segments').insert({ workspaceId: ws.id, operatorId: owner.id, name: 's', filters: '{}' }).returning('id'))[0].id;
    expect((await post(`/api/inbox/${segmentId}/${c.conversationId}`, owner.token, { status: 'resolve' })).status).to.equal(200);

    const bad = await post(`/api/inbox/all/${c.conversationId}`, owner.token, { status: 'fechar' });
    expect(bad.status).to.equal(400);
    expect(bad.body.errors[0].key).to.equal('status');
    expect((await post(`/api/inbox/all/${c.conversationId}`, owner.token, {})).body.errors[0].key).to.equal('status');
    expect((await post(`/api/inbox/all/${c.conversationId}`, stranger.token, { status: 'open' })).status).to.equal(404);
    expect((await post(`/api/inbox/nada/${c.conversationId}`, owner.token, { status: 'open' })).status).to.equal(404);
    expect((await post('/api/inbox/all/abc', owner.token, { status: 'open' })).status).to.equal(404);
    expect((await post(`/api/inbox/all/${c.conversationId}`, '', { status: 'open' })).status).to.equal(401);
  });

  it('stars and unstars for the caller only', async () => {
    const c = await makeConversation(api.deps, channel);
    expect((await post(`/api/inbox/favorites/${c.conversationId}`, owner.token)).body.data).to.deep.equal({ id: c.conversationId, starred: true });
    expect((await post(`/api/inbox/favorites/${c.conversationId}`, owner.token)).status).to.equal(200);
    expect((await api.request('GET', `/api/inbox/conversations/${c.conversationId}`, { token: owner.token })).body.data.starred).to.equal(true);
    expect((await api.request('GET', `/api/inbox/conversations/${c.conversationId}`, { token: master.token })).body.data.starred).to.equal(false);
    expect((await api.request('DELETE', `/api/inbox/favorites/${c.conversationId}`, { token: owner.token })).body.data).to.deep.equal({ id: c.conversationId, starred: false });
    expect((await post(`/api/inbox/favorites/${c.conversationId}`, stranger.token)).status).to.equal(404);
    expect((await api.request('DELETE', `/api/inbox/favorites/${c.conversationId}`, { token: stranger.token })).status).to.equal(404);
    expect((await post('/api/inbox/favorites/abc', owner.token)).status).to.equal(404);
    const hidden = await makeConversation(api.deps, channel, { groupId: group, operatorId: owner.id });
    expect((await post(`/api/inbox/favorites/${hidden.conversationId}`, restricted.token)).status).to.equal(404);
  });

  it('sets the current call\'s tags (and an earlier call\'s by callId), refusing foreign tags and calls', async () => {
    const c = await makeConversation(api.deps, channel);
    const vip = await makeLabel(knex, ws, 'Vip');
    const late = await makeLabel(knex, ws, 'Atraso');
    const foreign = await makeLabel(knex, await makeWorkspace(knex), 'Alheia');
    const live = await listen(owner);
    try {
      const res = await api.request('PUT', '/api/inbox/tag', { token: agent.token, body: { id: c.conversationId, tags: [vip, late, vip] } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data.tags.map((t: { name: string }) => t.name).sort()).to.deep.equal(['Atraso', 'Vip']);
      expect(res.body.data.tags[0]).to.have.all.keys('id', 'name', 'color', 'textColor');
      await waitFor(() => names(live.events.get(owner.id)).includes('chat.callStatus'));
    } finally {
      await live.close();
    }
    const replaced = await api.request('PUT', '/api/inbox/tag', { token: agent.token, body: { id: c.conversationId, tags: [late] } });
    expect(replaced.body.data.tags.map((t: { id: number }) => t.id)).to.deep.equal([late]);
    const cleared = await api.request('PUT', '/api/inbox/tag', { token: agent.token, body: { id: c.conversationId, tags: [] } });
    expect(cleared.body.data.tags).to.deep.equal([]);

    await post(`/api/inbox/all/${c.conversationId}`, owner.token, { status: 'resolve' });
    await post(`/api/inbox/all/${c.conversationId}`, owner.token, { status: 'open' });
    const old = await api.request('PUT', '/api/inbox/tag', { token: owner.token, body: { id: c.conversationId, tags: [vip], callId: c.callId } });
    expect(old.status).to.equal(200);
    expect(old.body.data.tags).to.deep.equal([]);
    expect(await knex('call_labels').where({ callId: c.callId }).pluck('label_id')).to.deep.equal([vip]);

    const other = await makeConversation(api.deps, channel);
    const bad = async (body: unknown, key: string, status = 400) => {
      const r = await api.request('PUT', '/api/inbox/tag', { token: owner.token, body });
      expect(r.status, JSON.stringify(body)).to.equal(status);
      if (status === 400) expect(r.body.errors.map((e: { key: string }) => e.key)).to.include(key);
    };
    await bad({ id: c.conversationId, tags: [foreign] }, 'tags');
    await bad({ id: c.conversationId, tags: [vip], callId: other.callId }, 'callId');
    await bad({ id: c.conversationId, tags: 'vip' }, 'tags');
    await bad({ id: c.conversationId, tags: ['1'] }, 'tags.0');
    await bad({ tags: [] }, 'id');
    await bad({ id: c.conversationId, tags: [vip] }, '', 200);
    const r = await api.request('PUT', '/api/inbox/tag', { token: stranger.token, body: { id: c.conversationId, tags: [] } });
    expect(r.status).to.equal(404);
  });

  it('assigns to the caller; those who only saw it unassigned are told it left their inbox', async () => {
    const c = await makeConversation(api.deps, channel);
    const live = await listen(owner, agent, restricted);
    try {
      const res = await post('/api/inbox/assignment', agent.token, { id: c.conversationId });
      expect(res.status).to.equal(200);
      expect(res.body.data.operatorId).to.equal(agent.id);
      expect((await knex('calls').where({ id: c.callId }).first()).operatorId).to.equal(agent.id);
      await waitFor(() => names(live.events.get(restricted.id)).includes('chat.conversationRemoved') && names(live.events.get(owner.id)).includes('chat.callStatus') && names(live.events.get(agent.id)).includes('chat.callStatus'));
      await sleep(100);
      expect(names(live.events.get(restricted.id))).to.deep.equal(['chat.conversationRemoved']);
      expect(live.events.get(restricted.id)![0].envelope.data).to.deep.equal({ conversationId: c.conversationId });
      expect(names(live.events.get(owner.id))).to.deep.equal(['chat.callStatus']);
    } finally {
      await live.close();
    }
    expect((await api.request('GET', `/api/inbox/conversations/${c.conversationId}`, { token: restricted.token })).status).to.equal(404);
    expect((await post('/api/inbox/assignment', restricted.token, { id: c.conversationId })).status).to.equal(404);
    expect((await post('/api/inbox/assignment', owner.token, {})).body.errors[0].key).to.equal('id');
    expect((await post('/api/inbox/assignment', stranger.token, { id: c.conversationId })).status).to.equal(404);
  });

  it('transfers to an operator who may see it; refuses one who may not, an inactive one and another workspace\'s', async () => {
    const c = await makeConversation(api.deps, channel, { groupId: group });
    const inactive = await makeOperator(knex, api.config.jwtSecret, ws, 10, { isActive: false });
    const refused = async (operatorId: number) => {
      const res = await post('/api/calls/transfer-operator', owner.token, { customerPlatformId: c.conversationId, operatorId });
      expect(res.status, String(operatorId)).to.equal(400);
      expect(res.body.errors[0].key).to.equal('operatorId');
      expect(res.body.errors[0].type).to.equal('ValidationError');
    };
    await refused(master.id); // master outside the group
    await refused(restricted.id); // restricted outside the group
    await refused(stranger.id);
    await refused(inactive.id);
    await refused(999_999);
    expect((await knex('customer_platforms').where({ id: c.conversationId }).first()).operatorId).to.equal(null);

    const live = await listen(owner, agent, master);
    try {
      const ok = await post('/api/calls/transfer-operator', owner.token, { customerPlatformId: c.conversationId, operatorId: agent.id });
      expect(ok.status).to.equal(200);
      expect(ok.body.data.operatorId).to.equal(agent.id);
      await waitFor(() => names(live.events.get(agent.id)).includes('chat.callStatus'));
      // Moving it out of the group leaves it with its assignee; the master now sees it (no group).
      const moved = await post('/api/calls/transfer-group', agent.token, { customerPlatformId: c.conversationId, groupId: null });
      expect(moved.body.data).to.include({ groupId: null, operatorId: agent.id });
      await waitFor(() => names(live.events.get(master.id)).includes('chat.callStatus'));
      expect(names(live.events.get(master.id))).to.deep.equal(['chat.callStatus']);
    } finally {
      await live.close();
    }
    const unassigned = await post('/api/calls/transfer-operator', owner.token, { customerPlatformId: c.conversationId, operatorId: null });
    expect(unassigned.body.data.operatorId).to.equal(null);
    expect((await knex('calls').where({ id: c.callId }).first()).operatorId).to.equal(null);
    expect((await post('/api/calls/transfer-operator', stranger.token, { customerPlatformId: c.conversationId, operatorId: null })).status).to.equal(404);
    const missing = await post('/api/calls/transfer-operator', owner.token, {});
    expect(missing.body.errors.map((e: { key: string }) => e.key).sort()).to.deep.equal(['customerPlatformId', 'operatorId']);
    expect((await post('/api/calls/transfer-operator', owner.token, { customerPlatformId: c.conversationId, operatorId: 'x' })).status).to.equal(400);
  });

  it('transfers to a group of the workspace and tells whoever loses sight of the conversation', async () => {
    const c = await makeConversation(api.deps, channel);
    const other = await makeGroup(knex, ws);
    const foreignGroup = await makeGroup(knex, await makeWorkspace(knex));
    const live = await listen(owner, agent, restricted, master);
    try {
      const res = await post('/api/calls/transfer-group', owner.token, { customerPlatformId: c.conversationId, groupId: other });
      expect(res.status).to.equal(200);
      expect(res.body.data.groupId).to.equal(other);
      expect((await knex('calls').where({ id: c.callId }).first()).groupId).to.equal(other);
      await waitFor(() => [agent, restricted, master].every((op) => names(live.events.get(op.id)).includes('chat.conversationRemoved')));
      expect(names(live.events.get(owner.id))).to.deep.equal(['chat.callStatus']);
    } finally {
      await live.close();
    }
    for (const groupId of [foreignGroup, 999_999]) {
      const r = await post('/api/calls/transfer-group', owner.token, { customerPlatformId: c.conversationId, groupId });
      expect(r.status).to.equal(400);
      expect(r.body.errors[0].key).to.equal('groupId');
    }
    expect((await post('/api/calls/transfer-group', owner.token, { customerPlatformId: c.conversationId, groupId: null })).body.data.groupId).to.equal(null);
    expect((await post('/api/calls/transfer-group', agent.token, { customerPlatformId: 999_999_999, groupId: null })).status).to.equal(404);
    expect((await post('/api/calls/transfer-group', owner.token, { customerPlatformId: c.conversationId })).body.errors[0].key).to.equal('groupId');
  });

  it('refuses to start a bot the workspace does not have (bot runtime: test/bots/initBot.test.ts)', async () => {
    const c = await makeConversation(api.deps, channel);
    const res = await post('/api/calls/init-bot', owner.token, { customerPlatformId: c.conversationId, botId: 2_000_000_000 });
    expect(res.status).to.equal(400);
    expect(res.body.errors[0]).to.include({ key: 'botId' });
    expect(res.body.errors[0].descriptions).to.deep.equal(['Bot não encontrado.']);
    expect((await post('/api/calls/init-bot', stranger.token, { customerPlatformId: c.conversationId, botId: 1 })).status).to.equal(404);
    const missing = await post('/api/calls/init-bot', owner.token, {});
    expect(missing.body.errors.map((e: { key: string }) => e.key).sort()).to.deep.equal(['botId', 'customerPlatformId']);
  });

  it('sends "composing" to the widget visitor at most once per second per conversation', async () => {
    const c = await makeConversation(api.deps, channel);
    const clients = new Clients(api.url);
    try {
      const spy = await clients.connect('internal', api.config.mqttInternalPassword);
      const got = inbox(spy);
      await subscribeCodes(spy, [topics.widget(channel.identifier, c.visitor)]);
      const firstSent = Date.now();
      for (let i = 0; i < 3; i++) {
        const res = await post('/api/integrations/composing', agent.token, { customerPlatformId: c.conversationId });
        expect(res.status).to.equal(204);
      }
      const lastAnswered = Date.now();
      await waitFor(() => got.length > 0, undefined, 'the first chat.composing');
      await sleep(300);
      expect([...new Set(got.map((r) => r.envelope.event))]).to.deep.equal(['chat.composing']);
      // Three calls within a second make one event; on a machine slow enough to spread them over more than
      // a second, each second they span may let one more through, never more than that.
      expect(got.length, `events for 3 calls made over ${lastAnswered - firstSent} ms`).to.be.at.most(1 + Math.floor((lastAnswered - firstSent) / 1000));
      // A second after the last call, the next one goes through again.
      await sleep(Math.max(0, lastAnswered + 1001 - Date.now()));
      const before = got.length;
      await post('/api/integrations/composing', agent.token, { customerPlatformId: c.conversationId });
      await waitFor(() => got.length > before, undefined, 'chat.composing a second later');
    } finally {
      await clients.endAll();
    }
    expect((await post('/api/integrations/composing', stranger.token, { customerPlatformId: c.conversationId })).status).to.equal(404);
    expect((await post('/api/integrations/composing', agent.token, {})).body.errors[0].key).to.equal('customerPlatformId');
  });

  it('validates a new outbound WhatsApp message, then answers that no line is connected', async () => {
    const whatsapp = await makeChannel(knex, ws, 'whatsapp');
    const bad = await post('/api/inbox/active-chat', owner.token, { workspacePlatformId: 'x', phone: '+55 (11) 99999-9999-99', content: [] });
    expect(bad.status).to.equal(400);
    expect(bad.body.errors.map((e: { key: string }) => e.key).sort()).to.deep.equal(['content', 'phone', 'workspacePlatformId']);
    const missing = await post('/api/inbox/active-chat', owner.token, {});
    expect(missing.body.errors.map((e: { key: string }) => e.key).sort()).to.deep.equal(['content', 'phone', 'workspacePlatformId']);
    const res = await post('/api/inbox/active-chat', owner.token, { workspacePlatformId: whatsapp.id, phone: '+55 (11) 99999-9999', name: 'Novo', content: [{ insert: 'Olá\n' }] });
    expect(res.status).to.equal(400);
    expect(res.body.errors[0]).to.deep.include({ key: 'workspacePlatformId', descriptions: ['Nenhuma linha de WhatsApp conectada.'] });
  });

  it('requires a valid token on every inbox call', async () => {
    const calls: [string, string][] = [
      ['GET', '/api/inbox'],
      ['GET', '/api/inbox/conversations/1'],
      ['POST', '/api/inbox/conversations/1/read'],
      ['POST', '/api/inbox/counter'],
      ['GET', '/api/inbox/messages?id=1'],
      ['POST', '/api/inbox/messages'],
      ['DELETE', '/api/inbox/messages/1'],
      ['POST', '/api/inbox/all/1'],
      ['POST', '/api/inbox/favorites/1'],
      ['DELETE', '/api/inbox/favorites/1'],
      ['PUT', '/api/inbox/tag'],
      ['POST', '/api/inbox/assignment'],
      ['POST', '/api/calls/transfer-operator'],
      ['POST', '/api/calls/transfer-group'],
      ['POST', '/api/calls/init-bot'],
      ['POST', '/api/integrations/composing'],
      ['POST', '/api/inbox/active-chat'],
    ];
    for (const [method, path] of calls) {
      const res = await api.request(method, path, { body: method === 'GET' || method === 'DELETE' ? undefined : {} });
      expect(res.status, `${method} ${path}`).to.equal(401);
    }
  });
});
