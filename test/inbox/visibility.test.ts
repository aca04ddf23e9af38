import { expect } from 'chai';
import type { MqttClient } from 'mqtt';
import { startTestApi, type ApiResponse, type TestApi } from '../helpers/api';
import { Clients, inbox, sleep, subscribeCodes, waitFor, type Received } from '../realtime/mqttClients';
import { topics } from '../../api/realtime/publisher';
import { receiveInbound } from '../../api/inbound/receiveInbound';
import { buildMatrix, expectedVisible, visibleIds, type Matrix, type Viewer } from '../policy/matrix';
import { inboundMessage } from './factories';

/** Every page of a segment through nextCursor. */
async function allPages(api: TestApi, token: string, segmentId: string, limit = 7): Promise<number[]> {
  const ids: number[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 50; i++) {
    const q: URLSearchParams = new URLSearchParams({ segmentId, limit: String(limit), ...(cursor ? { cursor } : {}) });
    const res: ApiResponse = await api.request('GET', `/api/inbox?${q}`, { token });
    expect(res.status).to.equal(200);
    ids.push(...res.body.data.map((c: { id: number }) => c.id));
    cursor = res.body.nextCursor;
    if (!cursor) return ids;
  }
  throw new Error('too many pages');
}

const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

describe('inbox visibility matrix: 5 levels × group membership × assignment (self, other, none)', function () {
  this.timeout(120_000);
  let api: TestApi;
  let m: Matrix;

  before(async () => {
    api = await startTestApi();
    m = await buildMatrix(api.deps);
  });
  after(() => api.close());

  const each = (fn: (v: Viewer) => Promise<void>) => async () => {
    for (const v of m.viewers) await fn(v);
  };

  it(
    'the list (all pages of "Inbox") holds exactly the visible conversations',
    each(async (v) => {
      expect(sorted(await allPages(api, v.token, 'all')), v.label).to.deep.equal(visibleIds(m, v));
    }),
  );

  it(
    '"Meus" holds the caller\'s own conversations, which are always visible',
    each(async (v) => {
      const own = m.conversations.filter((c) => c.operatorId === v.id).map((c) => c.id);
      expect(sorted(await allPages(api, v.token, 'me')), v.label).to.deep.equal(sorted(own));
    }),
  );

  it(
    'counters match the visible unread and pending conversations and the list',
    each(async (v) => {
      const res = await api.request('POST', '/api/inbox/counter', { token: v.token, body: {} });
      expect(res.status).to.equal(200);
      const visible = m.conversations.filter((c) => expectedVisible(v, c));
      expect(res.body.data, v.label).to.deep.include({
        all: visible.length,
        me: m.conversations.filter((c) => c.operatorId === v.id).length,
        starred: 0,
        archived: 0,
        pending: visible.filter((c) => c.operatorId === null).length,
      });
      const list = await api.request('GET', '/api/inbox?segmentId=all&limit=100', { token: v.token });
      expect(list.body.data.filter((c: { hasNewMessages: boolean }) => c.hasNewMessages).length, v.label).to.equal(res.body.data.all);
      expect(list.body.matchCount, v.label).to.equal(visible.length);
    }),
  );

  it(
    'a single conversation and its messages answer 200 when visible and 404 otherwise',
    each(async (v) => {
      for (const c of m.conversations) {
        const expected = expectedVisible(v, c) ? 200 : 404;
        const one = await api.request('GET', `/api/inbox/conversations/${c.id}`, { token: v.token });
        expect(one.status, `${v.label} → ${c.label}`).to.equal(expected);
        const messages = await api.request('GET', `/api/inbox/messages?id=${c.id}`, { token: v.token });
        expect(messages.status, `${v.label} → mensagens ${c.label}`).to.equal(expected);
        if (expected === 200) expect(messages.body.data).to.have.length(1);
        else expect(messages.body.errors[0].type).to.equal('NotFoundError');
      }
    }),
  );

  it('realtime delivers each conversation\'s events to exactly the operators who may see it', async () => {
    const clients = new Clients(api.url);
    try {
      const received = new Map<number, Received[]>();
      for (const v of m.viewers) {
        const client: MqttClient = await clients.connect(String(v.id), v.token);
        received.set(v.id, inbox(client));
        expect(await subscribeCodes(client, [topics.operator(m.ws.id, v.id)])).to.deep.equal([1]);
      }
      for (const c of m.conversations) {
        await receiveInbound(api.deps, inboundMessage(m.channel, { identity: { externalId: c.visitor } }));
      }
      const expectedFor = (v: Viewer) => visibleIds(m, v);
      const seen = (v: Viewer) =>
        sorted([...new Set(received.get(v.id)!.filter((r) => r.envelope.event === 'chat.newMessage').map((r) => (r.envelope.data as { conversation: { id: number } }).conversation.id))]);
      await waitFor(() => m.viewers.every((v) => seen(v).length >= expectedFor(v).length), 20_000, "every viewer's chat.newMessage events");
      await sleep(200);
      for (const v of m.viewers) expect(seen(v), v.label).to.deep.equal(expectedFor(v));
    } finally {
      await clients.endAll();
    }
  });
});
