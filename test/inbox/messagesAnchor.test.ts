import { expect } from 'chai';
import type { Knex } from 'knex';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { MESSAGES_AROUND_NEWER, ONE_MESSAGE_CURSOR } from '../../api/inbox/schema';
import { makeChannel, makeConversation, makeGroup, type TestChannel, type TestConversation } from './factories';

const N = 2_000;

/**
 * N messages by SQL in one conversation. Their times are a permutation of the ids (id order is not time
 * order) with two messages per second (ties broken by id), so only a (created_at, id) keyset pages right.
 */
async function seed(knex: Knex, c: TestConversation, channel: TestChannel): Promise<void> {
  await knex.raw(
    `INSERT INTO messages (workspace_id, channel_id, customer_platform_id, call_id, content, text, sender, type, created_at)
     SELECT ?, ?, ?, ?, jsonb_build_array(jsonb_build_object('insert', 'Mensagem ' || g || E'\\n')), 'Mensagem ' || g,
            CASE WHEN g % 2 = 0 THEN 'operator' ELSE 'customer' END, CASE WHEN g % 97 = 0 THEN 2 ELSE 0 END,
            now() - interval '10 days' + ((g * 7919) % ?) / 2 * interval '1 second'
     FROM generate_series(1, ?) g`,
    [channel.workspaceId, channel.id, c.conversationId, c.callId, N, N],
  );
}

describe('inbox messages: opening on a message far back (`around`) and paging forward (`after`)', function () {
  this.timeout(120_000);
  let api: TestApi;
  let knex: Knex;
  let ws: TestWorkspace;
  let owner: TestOperator;
  let channel: TestChannel;
  let c: TestConversation;
  /** Every message id of the conversation, newest first, as the database orders them. */
  let order: number[];

  before(async () => {
    api = await startTestApi();
    knex = api.deps.knex;
    ws = await makeWorkspace(knex);
    owner = await makeOperator(knex, api.config.jwtSecret, ws, 10);
    channel = await makeChannel(knex, ws, 'telegram');
    c = await makeConversation(api.deps, channel);
    await seed(knex, c, channel);
    const rows = await knex('messages').where({ customerPlatformId: c.conversationId }).orderBy([{ column: 'createdAt', order: 'desc' }, { column: 'id', order: 'desc' }]).select('id');
    order = rows.map((r: { id: string | number }) => Number(r.id));
    expect(order).to.have.length(N + 1);
  });
  after(async () => {
    await api.close();
  });

  const get = (qs: string, token = owner.token) => api.request('GET', `/api/inbox/messages?${qs}`, { token });
  const ids = (res: { body: { data: { id: number }[] } }) => res.body.data.map((m) => Number(m.id));

  it('around a message: the message, the 10 newer ones and older ones up to the limit, newest first', async () => {
    const at = 1_400;
    const res = await get(`id=${c.conversationId}&around=${order[at]}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(ids(res)).to.deep.equal(order.slice(at - MESSAGES_AROUND_NEWER, at - MESSAGES_AROUND_NEWER + 30));
    expect(ids(res)[MESSAGES_AROUND_NEWER]).to.equal(order[at]);
    expect(res.body.matchCount).to.equal(N + 1);

    const wide = await get(`id=${c.conversationId}&around=${order[at]}&limit=100`);
    expect(ids(wide)).to.deep.equal(order.slice(at - MESSAGES_AROUND_NEWER, at - MESSAGES_AROUND_NEWER + 100));
    expect(ids(await get(`id=${c.conversationId}&around=${order[at]}&limit=1`))).to.deep.equal([order[at]]);
    expect(ids(await get(`id=${c.conversationId}&around=${order[at]}&limit=4`))).to.deep.equal(order.slice(at - 3, at + 1));
  });

  it('around the newest and the oldest messages: only what exists on each side', async () => {
    expect(ids(await get(`id=${c.conversationId}&around=${order[3]}`))).to.deep.equal(order.slice(0, 30 - (MESSAGES_AROUND_NEWER - 3)));
    expect(ids(await get(`id=${c.conversationId}&around=${order[N]}`))).to.deep.equal(order.slice(N - MESSAGES_AROUND_NEWER));
  });

  it('from an `around` page, `before` pages reach the first message and `after` pages the newest, without gaps or repeats', async () => {
    const at = 1_400;
    const seen: number[][] = [];
    const first = ids(await get(`id=${c.conversationId}&around=${order[at]}`));
    seen.push(first);
    let oldest = first[first.length - 1];
    for (;;) {
      const page = ids(await get(`id=${c.conversationId}&before=${oldest}`));
      if (page.length === 0) break;
      seen.push(page);
      oldest = page[page.length - 1];
    }
    let newest = first[0];
    let requests = 0;
    for (;;) {
      const page = ids(await get(`id=${c.conversationId}&after=${newest}`));
      requests++;
      if (page.length === 0) break;
      seen.unshift(page);
      newest = page[0];
      if (page.length < 30) break;
    }
    expect(requests).to.equal(Math.ceil((at - MESSAGES_AROUND_NEWER) / 30));
    expect(seen.flat()).to.deep.equal(order);
  });

  it('`after` pages are the `limit` messages right after the cursor, newest first, and the newest message ends them', async () => {
    expect(ids(await get(`id=${c.conversationId}&after=${order[500]}&limit=7`))).to.deep.equal(order.slice(493, 500));
    expect(ids(await get(`id=${c.conversationId}&after=${order[5]}`))).to.deep.equal(order.slice(0, 5));
    const end = await get(`id=${c.conversationId}&after=${order[0]}`);
    expect(end.status).to.equal(200);
    expect(end.body).to.deep.equal({ data: [], matchCount: N + 1 });
  });

  it('keeps private notes and the call filter on `around` and `after` pages', async () => {
    const page = await get(`id=${c.conversationId}&around=${order[1_000]}&limit=100`);
    expect(page.body.data.some((m: { type: number }) => m.type === 2)).to.equal(true);
    // A second call: its messages are newer than all seeded ones.
    const [call] = await knex('calls').insert({ workspaceId: ws.id, customerPlatformId: c.conversationId, protocol: 900_000_001, isFinished: true, finishedAt: new Date() }).returning('id');
    const callId = Number(call.id);
    await knex('messages').insert(
      Array.from({ length: 3 }, (_, i) => ({ workspaceId: ws.id, channelId: channel.id, customerPlatformId: c.conversationId, callId, content: JSON.stringify([{ insert: `segundo ${i}\n` }]), text: `segundo ${i}`, sender: 'customer', createdAt: new Date(Date.now() + i * 1000) })),
    );
    const second = ids(await get(`id=${c.conversationId}&callId=${callId}`));
    expect(second).to.have.length(3);
    // Around the first call's newest message, filtered to the second call: the newer ones only.
    expect(ids(await get(`id=${c.conversationId}&callId=${callId}&around=${order[0]}`))).to.deep.equal([]);
    expect(ids(await get(`id=${c.conversationId}&callId=${callId}&after=${order[0]}`))).to.deep.equal(second);
    expect(ids(await get(`id=${c.conversationId}&callId=${c.callId}&after=${order[2]}`))).to.deep.equal(order.slice(0, 2));
    await knex('messages').where({ callId }).delete();
    await knex('calls').where({ id: callId }).delete();
  });

  it('rejects bad cursors field by field in pt-BR, and more than one cursor at once', async () => {
    const keysOf = async (qs: string) => {
      const res = await get(qs);
      expect(res.status, qs).to.equal(400);
      expect(res.body.errors[0].type).to.equal('ValidationError');
      return Object.fromEntries(res.body.errors.map((e: { key: string; descriptions: string[] }) => [e.key, e.descriptions]));
    };
    expect(await keysOf(`id=${c.conversationId}&after=abc`)).to.deep.equal({ after: ['Identificador inválido.'] });
    // Every failing rule at once: both ids are bad, and two cursors were sent.
    expect(await keysOf(`id=${c.conversationId}&after=abc&around=0`)).to.deep.equal({ after: ['Identificador inválido.'], around: ['Identificador inválido.', ONE_MESSAGE_CURSOR] });
    expect(await keysOf(`id=${c.conversationId}&around=-5`)).to.deep.equal({ around: ['Identificador inválido.'] });
    expect(await keysOf(`id=${c.conversationId}&after=1&before=2`)).to.deep.equal({ after: [ONE_MESSAGE_CURSOR] });
    expect(await keysOf(`id=${c.conversationId}&after=1&before=2&around=3`)).to.deep.equal({ after: [ONE_MESSAGE_CURSOR], around: [ONE_MESSAGE_CURSOR] });
    expect(await keysOf(`around=${order[0]}`)).to.deep.equal({ id: ['Informe a conversa.'] });
    expect(ONE_MESSAGE_CURSOR).to.equal('Use só um entre before, after e around.');
  });

  it("leaks nothing: another conversation's or workspace's message gives an empty page, an invisible conversation a 404", async () => {
    const other = await makeConversation(api.deps, channel);
    for (const cursor of ['around', 'after']) {
      const res = await get(`id=${c.conversationId}&${cursor}=${other.messageId}`);
      expect(res.status, cursor).to.equal(200);
      expect(res.body.data, cursor).to.deep.equal([]);
    }
    const elsewhere = await makeWorkspace(knex);
    const stranger = await makeOperator(knex, api.config.jwtSecret, elsewhere, 10);
    const theirs = await makeConversation(api.deps, await makeChannel(knex, elsewhere, 'telegram'), { text: 'Segredo de outra empresa' });
    for (const cursor of ['around', 'after']) {
      const mine = await get(`id=${c.conversationId}&${cursor}=${theirs.messageId}`);
      expect(mine.body.data, cursor).to.deep.equal([]);
      // Their conversation through our token, and ours through theirs: 404, not the messages.
      expect((await get(`id=${theirs.conversationId}&${cursor}=${theirs.messageId}`)).status, cursor).to.equal(404);
      expect((await get(`id=${c.conversationId}&${cursor}=${order[100]}`, stranger.token)).status, cursor).to.equal(404);
    }
    const agent = await makeOperator(knex, api.config.jwtSecret, ws, 3);
    const hidden = await makeConversation(api.deps, channel, { groupId: await makeGroup(knex, ws) });
    const res = await get(`id=${hidden.conversationId}&around=${hidden.messageId}`, agent.token);
    expect(res.status).to.equal(404);
    expect(JSON.stringify(res.body)).not.to.contain('Olá');
  });
});
