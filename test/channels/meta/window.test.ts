import { expect } from 'chai';
import type { TestApi } from '../../helpers/api';
import { unique, type TestOperator } from '../../helpers/factories';
import { makeChannel, makeConversation } from '../../inbox/factories';
import { instagramBatch, messageEvent, MetaMessagingFake, pageBatch, postMetaWebhook, type FakePage } from '../../fakes/metaMessaging';
import { makeOwner, until } from '../helpers';
import { connectInstagram, connectPage, startMetaApi } from './support';

const HOUR = 3600_000;

/**
 * GET /api/inbox/meta-window/{id}: what the composer is told about Meta's messaging window before the
 * agent writes — open within 24 h of the customer's last message, then HUMAN_AGENT up to 7 days when the
 * app has that feature, closed otherwise (time-travel: the customer's messages are made older).
 */
describe('Messenger/Instagram window for the composer (GET /api/inbox/meta-window/:id)', function () {
  this.timeout(60_000);
  const fake = new MetaMessagingFake();
  let plain: TestApi;
  let tagged: TestApi;

  before(async () => {
    await fake.start();
    plain = await startMetaApi(fake);
    tagged = await startMetaApi(fake, { metaHumanAgentTag: true });
  });
  after(async () => {
    await plain?.close();
    await tagged?.close();
    await fake.stop();
  });

  interface Setup {
    owner: TestOperator;
    page: FakePage;
    fbChannel: number;
  }
  async function setup(api: TestApi): Promise<Setup> {
    const { owner } = await makeOwner(api);
    const page = fake.addPage({ name: unique('Loja') }, { username: unique('loja').replace(/-/g, '') });
    const fb = await connectPage(api, owner, page);
    return { owner, page, fbChannel: fb.id };
  }

  async function customerWrites(api: TestApi, channelId: number, payload: unknown): Promise<number> {
    const before = await api.deps.knex('messages').where({ channelId }).count<{ count: string }[]>('id as count');
    expect((await postMetaWebhook(`${api.url}/api/hooks/meta`, payload, fake.appSecret)).status).to.equal(200);
    await until(async () => Number((await api.deps.knex('messages').where({ channelId }).count<{ count: string }[]>('id as count'))[0]!.count) > Number(before[0]!.count));
    const last = await api.deps.knex('messages').where({ channelId }).orderBy('id', 'desc').first();
    return last.customerPlatformId as number;
  }
  const messenger = (api: TestApi, s: Setup, psid: string, text: string) =>
    customerWrites(api, s.fbChannel, pageBatch([{ pageId: s.page.id, messaging: [messageEvent(psid, s.page.id, { text })] }]));
  const newPsid = () => `${Date.now()}${Math.floor(Math.random() * 100_000)}`;

  /** The customer's last message was `hours` ago. */
  const age = (api: TestApi, conversationId: number, hours: number) =>
    api.deps.knex('messages').where({ customerPlatformId: conversationId, sender: 'customer' }).update({ createdAt: new Date(Date.now() - hours * HOUR) });
  const windowOf = (api: TestApi, owner: TestOperator, id: number) => api.request('GET', `/api/inbox/meta-window/${id}`, { token: owner.token });

  it('within 24 hours of the customer’s last message the window is open and closes 24 h after it', async () => {
    const s = await setup(plain);
    const id = await messenger(plain, s, newPsid(), 'Oi, tudo bem?');
    await age(plain, id, 3);
    const res = await windowOf(plain, s.owner, id);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const last = await plain.deps.knex('messages').where({ customerPlatformId: id, sender: 'customer' }).first();
    const lastAt = new Date(last.createdAt).getTime();
    expect(res.body.data).to.deep.equal({
      kind: 'open',
      platform: 'facebook',
      closesAt: new Date(lastAt + 24 * HOUR).toISOString(),
      reason: null,
      lastCustomerMessageAt: new Date(lastAt).toISOString(),
      humanAgentTag: false,
    });
  });

  it('past 24 hours without the Human Agent feature the window is closed, with the reason the delivery path gives', async () => {
    const s = await setup(plain);
    const id = await messenger(plain, s, newPsid(), 'Vocês entregam?');
    await age(plain, id, 25);
    const res = await windowOf(plain, s.owner, id);
    expect(res.status).to.equal(200);
    expect(res.body.data).to.include({ kind: 'closed', closesAt: null, humanAgentTag: false });
    expect(res.body.data.reason).to.match(/^A janela de 24 horas para responder fechou/);
  });

  it('past 24 hours with the Human Agent feature replies go with HUMAN_AGENT until 7 days after the customer’s message; past 7 days it is closed', async () => {
    const s = await setup(tagged);
    const id = await messenger(tagged, s, newPsid(), 'Ainda tem o produto?');
    await age(tagged, id, 30);
    let res = await windowOf(tagged, s.owner, id);
    expect(res.status).to.equal(200);
    const lastAt = Date.parse(res.body.data.lastCustomerMessageAt);
    expect(res.body.data).to.include({ kind: 'human_agent', reason: null, humanAgentTag: true, closesAt: new Date(lastAt + 7 * 24 * HOUR).toISOString() });

    await age(tagged, id, 7 * 24 + 1);
    res = await windowOf(tagged, s.owner, id);
    expect(res.body.data).to.include({ kind: 'closed', closesAt: null });
    expect(res.body.data.reason).to.match(/^A janela de 24 horas para responder fechou/);
  });

  it('the customer writing again opens the window again (the newest customer message counts)', async () => {
    const s = await setup(plain);
    const psid = newPsid();
    const id = await messenger(plain, s, psid, 'Primeira');
    await age(plain, id, 48);
    expect((await windowOf(plain, s.owner, id)).body.data.kind).to.equal('closed');
    expect(await messenger(plain, s, psid, 'Voltei')).to.equal(id);
    expect((await windowOf(plain, s.owner, id)).body.data.kind).to.equal('open');
  });

  it('an Instagram conversation answers the same shape with platform instagram', async () => {
    const s = await setup(plain);
    const ig = await connectInstagram(plain, s.owner, s.page);
    const igsid = newPsid();
    const id = await customerWrites(plain, ig.id, instagramBatch([{ accountId: ig.instagramAccountId, messaging: [messageEvent(igsid, ig.instagramAccountId, { text: 'Tem tamanho M?' })] }]));
    expect((await windowOf(plain, s.owner, id)).body.data).to.include({ kind: 'open', platform: 'instagram' });
    await age(plain, id, 26);
    expect((await windowOf(plain, s.owner, id)).body.data).to.include({ kind: 'closed', platform: 'instagram' });
  });

  it('another workspace gets 404, and a conversation of another channel type is refused in pt-BR', async () => {
    const s = await setup(plain);
    const id = await messenger(plain, s, newPsid(), 'Olá');
    const other = await makeOwner(plain);
    expect((await windowOf(plain, other.owner, id)).status).to.equal(404);

    const widget = await makeChannel(plain.deps.knex, other.ws, 'widget');
    const conversation = await makeConversation(plain.deps, widget);
    const res = await windowOf(plain, other.owner, conversation.conversationId);
    expect(res.status).to.equal(400);
    expect(res.body.errors[0].descriptions).to.deep.equal(['Esta conversa não é do Facebook nem do Instagram.']);
  });
});
