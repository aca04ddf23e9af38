import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { inboundMessage, makeChannel, makeConversation, makeGroup, type TestChannel, type TestConversation } from '../inbox/factories';
import { receiveInbound } from '../../api/inbound/receiveInbound';
import { allowLoopbackPushForTests } from '../../api/push/testing';
import { pushesSettled } from '../../api/push/send';
import { PushServiceFake, type PushSubscriptionKeys } from '../fakes/pushService';

const ANDROID_CHROME = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

describe('Web Push (docs/pwa.md)', function () {
  this.timeout(60_000);
  let api: TestApi;
  let fake: PushServiceFake;

  before(async () => {
    api = await startTestApi();
    fake = new PushServiceFake();
    await fake.start();
    allowLoopbackPushForTests(true);
  });
  after(async () => {
    await pushesSettled();
    allowLoopbackPushForTests(false);
    await fake.stop();
    await api.close();
  });

  async function subscribe(op: TestOperator, sub: PushSubscriptionKeys = fake.subscribe()) {
    const res = await api.request('POST', '/api/push/subscriptions', { token: op.token, body: sub, headers: { 'User-Agent': ANDROID_CHROME } });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return { sub, id: res.body.data.id as number };
  }

  /** A customer message in an existing conversation, through the production inbound pipeline; waits for its pushes. */
  async function customerWrites(channel: TestChannel, conv: TestConversation, text: string) {
    await receiveInbound(api.deps, inboundMessage(channel, { identity: { externalId: conv.visitor, name: 'Cliente' }, content: [{ insert: `${text}\n` }] }));
    await pushesSettled();
  }

  describe('devices', () => {
    let ws: TestWorkspace;
    let agent: TestOperator;
    let colleague: TestOperator;
    let stranger: TestOperator;

    before(async () => {
      ws = await makeWorkspace(api.deps.knex);
      agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
      colleague = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
      stranger = await makeOperator(api.deps.knex, api.config.jwtSecret, await makeWorkspace(api.deps.knex), 10);
    });

    it('answers the VAPID public key: an uncompressed P-256 point, the one the server signs with', async () => {
      const res = await api.request('GET', '/api/push/public-key', { token: agent.token });
      expect(res.status).to.equal(200);
      const key = Buffer.from(res.body.data.publicKey, 'base64url');
      expect(key.length).to.equal(65);
      expect(key[0]).to.equal(4);
      expect(res.body.data.publicKey).to.equal(api.config.vapidPublicKey);
    });

    it('subscribes a device once (subscribing the same endpoint again updates it) and lists it with a label', async () => {
      const sub = fake.subscribe();
      const first = await subscribe(agent, sub);
      const again = await subscribe(agent, sub);
      expect(again.id).to.equal(first.id);
      const list = await api.request('GET', '/api/push/subscriptions', { token: agent.token });
      expect(list.status).to.equal(200);
      const mine = list.body.data.filter((d: { endpoint: string }) => d.endpoint === sub.endpoint);
      expect(mine).to.have.length(1);
      expect(mine[0].label).to.equal('Chrome no Android');
    });

    it('refuses a subscription without valid keys or endpoint, each field named in pt-BR', async () => {
      const res = await api.request('POST', '/api/push/subscriptions', { token: agent.token, body: { endpoint: 'não é url', keys: { p256dh: 'abc', auth: '' } } });
      expect(res.status).to.equal(400);
      const keys = (res.body.errors as { key: string }[]).map((e) => e.key);
      expect(keys).to.include.members(['endpoint', 'keys.p256dh', 'keys.auth']);
      const missing = await api.request('POST', '/api/push/subscriptions', { token: agent.token, body: { endpoint: fake.subscribe().endpoint } });
      expect(missing.status).to.equal(400);
      expect(missing.body.errors[0].descriptions[0]).to.equal('Informe as chaves da inscrição.');
    });

    it('refuses an endpoint on an internal address (the api would post to it)', async () => {
      allowLoopbackPushForTests(false);
      try {
        const res = await api.request('POST', '/api/push/subscriptions', { token: agent.token, body: fake.subscribe() });
        expect(res.status).to.equal(400);
        expect(res.body.errors[0].key).to.equal('endpoint');
      } finally {
        allowLoopbackPushForTests(true);
      }
    });

    it('removes only the caller’s own device: a colleague or another workspace gets 404 and sees nothing', async () => {
      const { id, sub } = await subscribe(agent);
      for (const other of [colleague, stranger]) {
        const list = await api.request('GET', '/api/push/subscriptions', { token: other.token });
        expect(list.body.data.map((d: { id: number }) => d.id)).to.not.include(id);
        const del = await api.request('DELETE', `/api/push/subscriptions/${id}`, { token: other.token });
        expect(del.status).to.equal(404);
      }
      expect(await api.deps.knex('push_subscriptions').where({ id }).first()).to.not.equal(undefined);
      const del = await api.request('DELETE', `/api/push/subscriptions/${id}`, { token: agent.token });
      expect(del.status).to.equal(204);
      const list = await api.request('GET', '/api/push/subscriptions', { token: agent.token });
      expect(list.body.data.map((d: { endpoint: string }) => d.endpoint)).to.not.include(sub.endpoint);
    });

    it('refuses the workspace API token: it is nobody’s device', async () => {
      const gen = await api.request('POST', '/api/workspace/secrets', { token: colleague.token });
      const apiToken = gen.body.data.apiToken as string;
      const res = await api.request('POST', '/api/push/subscriptions', { token: apiToken, body: fake.subscribe() });
      expect(res.status).to.equal(403);
      expect((await api.request('GET', '/api/push/subscriptions', { token: apiToken })).status).to.equal(403);
    });
  });

  describe('who gets a push', () => {
    let ws: TestWorkspace;
    let channel: TestChannel;
    let admin: TestOperator;
    let inGroup: TestOperator;
    let outsider: TestOperator;
    let away: TestOperator;
    let foreign: TestOperator;
    let group: number;
    const subs = new Map<number, PushSubscriptionKeys>();

    before(async () => {
      const { knex } = api.deps;
      ws = await makeWorkspace(knex);
      admin = await makeOperator(knex, api.config.jwtSecret, ws, 10);
      inGroup = await makeOperator(knex, api.config.jwtSecret, ws, 3);
      outsider = await makeOperator(knex, api.config.jwtSecret, ws, 3);
      away = await makeOperator(knex, api.config.jwtSecret, ws, 9);
      await knex('workspace_members').where({ workspaceId: ws.id, operatorId: away.id }).update({ availability: 'ausente' });
      group = await makeGroup(knex, ws, [inGroup.id]);
      channel = await makeChannel(knex, ws);
      const other = await makeWorkspace(knex);
      foreign = await makeOperator(knex, api.config.jwtSecret, other, 10);
      for (const op of [admin, inGroup, outsider, away, foreign]) subs.set(op.id, (await subscribe(op)).sub);
    });

    const pushesOf = (op: TestOperator) => fake.pushesFor(subs.get(op.id)!.endpoint);

    it('a customer message reaches the agents who may see the conversation, encrypted, VAPID-signed, with its url', async () => {
      const conv = await makeConversation(api.deps, channel, { name: 'Maria Clara', groupId: group, operatorId: null });
      await pushesSettled();
      const before = new Map([admin, inGroup, outsider, away, foreign].map((op) => [op.id, pushesOf(op).length]));
      await customerWrites(channel, conv, 'Quero saber da torta de limão');
      const news = (op: TestOperator) => pushesOf(op).slice(before.get(op.id));
      expect(news(admin)).to.have.length(1);
      expect(news(inGroup)).to.have.length(1);
      const push = news(inGroup)[0];
      expect(push.json).to.include({ title: 'Maria Clara', body: 'Quero saber da torta de limão', url: `/inbox/all/${conv.conversationId}` });
      expect(push.vapidKey).to.equal(api.config.vapidPublicKey);
      expect(push.claims.aud).to.equal(fake.url);
      // A level-3 agent outside the conversation's group cannot see it; another workspace never hears of it.
      expect(news(outsider)).to.have.length(0);
      expect(news(foreign)).to.have.length(0);
      // 'ausente': only conversations assigned to them.
      expect(news(away)).to.have.length(0);
      expect(fake.refused).to.deep.equal([]);
    });

    it('a new conversation (first message) is announced as one, to a visible agent', async () => {
      const start = pushesOf(outsider).length;
      const msg = inboundMessage(channel, { identity: { externalId: `novo-${Date.now()}`, name: 'João Pedro' }, content: [{ insert: 'Bom dia\n' }] });
      const result = await receiveInbound(api.deps, msg);
      await pushesSettled();
      const conv = await api.deps.knex('customer_platforms').where({ id: result.conversationId }).first('operator_id', 'group_id');
      // Unassigned and in no group: every level-3 agent sees it.
      expect(conv).to.deep.include({ operatorId: null, groupId: null });
      const got = pushesOf(outsider).slice(start);
      expect(got).to.have.length(1);
      expect(got[0].json).to.include({ title: 'Nova conversa: João Pedro', body: 'Bom dia', url: `/inbox/all/${result.conversationId}` });
    });

    it('an agent who is ausente gets pushes only for conversations assigned to them', async () => {
      const assigned = await makeConversation(api.deps, channel, { name: 'Cliente do Ausente', operatorId: away.id });
      await pushesSettled();
      const start = pushesOf(away).length;
      await customerWrites(channel, assigned, 'Oi de novo');
      expect(pushesOf(away).slice(start).map((p) => p.json.url)).to.deep.equal([`/inbox/all/${assigned.conversationId}`]);
    });

    it('an image without text is announced with a pt-BR label', async () => {
      const conv = await makeConversation(api.deps, channel, { name: 'Foto', operatorId: admin.id });
      await pushesSettled();
      const start = pushesOf(admin).length;
      await receiveInbound(api.deps, inboundMessage(channel, { identity: { externalId: conv.visitor }, content: [{ file: { key: `img-${Date.now()}`, fileName: 'foto.jpg', mime: 'image/jpeg', size: 10 } }] }));
      await pushesSettled();
      expect(pushesOf(admin).slice(start).map((p) => p.json.body)).to.deep.equal(['📷 Imagem']);
    });

    it('a subscription the push service answers 410 Gone for is deleted', async () => {
      const { id, sub } = await subscribe(outsider);
      fake.markGone(sub.endpoint);
      const conv = await makeConversation(api.deps, channel, { name: 'Gone', operatorId: null, groupId: null });
      await pushesSettled();
      expect(await api.deps.knex('push_subscriptions').where({ id }).first()).to.equal(undefined);
      expect(fake.refused.filter((r) => r.status === 410)).to.have.length.greaterThan(0);
      // The agent's other device still gets the next message.
      const start = pushesOf(outsider).length;
      await customerWrites(channel, conv, 'Alô');
      expect(pushesOf(outsider).length).to.equal(start + 1);
    });
  });
});
