import { expect } from 'chai';
import type { TestApi } from '../helpers/api';
import type { TestWorkspace } from '../helpers/factories';
import { receiveInbound } from '../../api/inbound/receiveInbound';
import { inboundMessage, makeChannel, makeConversation, type TestChannel, type TestConversation } from '../inbox/factories';
import { cutOff, describeOwnerPage, logIn } from './support';

const SEEDED = 1_500;
/** The hit: 1,400 messages are newer than it (the 1,399 seeded after it and the conversation's 'Olá'). */
const HIT_AT = 101;
const HIT_TEXT = 'Vocês fazem bolo de jabuticaba para sábado?';

interface LongConversation {
  channel: TestChannel;
  c: TestConversation;
  hitId: number;
}

/**
 * Dona Cida's conversation: 1,500 messages inserted by SQL, one a minute, before the 'Olá' that opened it;
 * the word 'jabuticaba' only in the 101st, far beyond the 40 pages the view used to walk back.
 */
async function longConversation(api: TestApi, ws: TestWorkspace): Promise<LongConversation> {
  const knex = api.deps.knex;
  const channel = await makeChannel(knex, ws);
  const c = await makeConversation(api.deps, channel, { name: 'Dona Cida' });
  await knex.raw(
    `INSERT INTO messages (workspace_id, channel_id, customer_platform_id, call_id, content, text, sender, operator_id, created_at)
     SELECT ?, ?, ?, ?, jsonb_build_array(jsonb_build_object('insert', t || E'\\n')), t, s, NULL, now() - interval '2 days' + g * interval '1 minute'
     FROM (SELECT g,
                  CASE WHEN g = ? THEN ? ELSE 'Mensagem de acompanhamento número ' || g END AS t,
                  CASE WHEN g % 2 = 0 THEN 'operator' ELSE 'customer' END AS s
           FROM generate_series(1, ?) g) x`,
    [ws.id, channel.id, c.conversationId, c.callId, HIT_AT, HIT_TEXT, SEEDED],
  );
  const hit = await knex('messages').where({ customerPlatformId: c.conversationId, text: HIT_TEXT }).first('id');
  const newer = await knex('messages').where({ customerPlatformId: c.conversationId }).where('id', '>', hit.id).count<{ count: string }[]>('* as count');
  expect(Number(newer[0]!.count) + 1, 'the Olá is newer too').to.equal(SEEDED - HIT_AT + 1);
  return { channel, c, hitId: Number(hit.id) };
}

describeOwnerPage('e2e: a search hit far back opens the conversation on it', (s) => {
  const log = () => s.page.getByRole('log', { name: 'Mensagens da conversa' });
  const jump = () => s.page.getByRole('button', { name: /Ir para as mensagens mais recentes/ });
  /** The ids of the messages on screen, oldest first. */
  const shownIds = () => s.page.evaluate<number[]>(`[...document.querySelectorAll('[role="log"] [data-message-id]')].map((e) => Number(e.getAttribute('data-message-id')))`);
  const distanceFromBottom = () => s.page.evaluate<number>(`(() => { const el = document.querySelector('[role="log"]'); return el.scrollHeight - el.scrollTop - el.clientHeight; })()`);

  /** Logs in, searches the word on /search and opens the message hit. */
  async function openHit(conv: LongConversation, requests: string[]): Promise<void> {
    s.page.on('request', (req) => {
      if (/\/api\/inbox\/messages\?/.test(req.url())) requests.push(new URL(req.url()).search);
    });
    await logIn(s.page, s.owner, { live: true });
    await s.page.goto('/search?q=jabuticaba');
    const hits = s.page.locator('section[aria-labelledby="search-messages"] [data-search-result]');
    await hits.first().waitFor();
    expect(await hits.count()).to.equal(1);
    await hits.first().click();
    await s.page.waitForURL(`**/inbox/all/${conv.c.conversationId}?message=${conv.hitId}`);
  }

  it('opens at the message, highlighted; scrolling down loads newer pages; new messages wait; the button goes back to the newest', async () => {
    const { api, page, ws } = s;
    const conv = await longConversation(api, ws);
    const requests: string[] = [];
    await openHit(conv, requests);

    const hit = page.locator(`[data-message-id="${conv.hitId}"]`);
    await page.locator(`[data-message-id="${conv.hitId}"][data-search-focus]`).waitFor({ timeout: 10_000 });
    const box = (await hit.boundingBox())!;
    const area = (await log().boundingBox())!;
    expect(box.y >= area.y - 1 && box.y + box.height <= area.y + area.height + 1, 'the message is in the visible part of the conversation').to.equal(true);
    expect(requests.some((q) => q.includes(`around=${conv.hitId}`)), requests.join(' ')).to.equal(true);
    expect(requests.filter((q) => q.includes('before=')).length, 'no walk back page by page').to.be.below(4);
    const before = await shownIds();
    expect(before.length, 'only the pages around the hit are on screen').to.be.below(100);
    await jump().waitFor();
    expect(await cutOff(page)).to.deep.equal([]);

    // A customer writes meanwhile: not shown after the window (that is not the end), counted on the button.
    await receiveInbound(api.deps, inboundMessage(conv.channel, { identity: { externalId: conv.c.visitor, name: 'Dona Cida' }, content: [{ insert: 'Chegou agora, ainda tem bolo?\n' }] }));
    await page.getByRole('button', { name: /1 mensagem nova/ }).waitFor();
    expect(await log().getByText('Chegou agora, ainda tem bolo?').count()).to.equal(0);

    // Scrolling down loads the next newer page below, and the reader stays where they were.
    const rows = await api.deps.knex('messages').where({ customerPlatformId: conv.c.conversationId }).orderBy([{ column: 'createdAt' }, { column: 'id' }]).select('id');
    const order = rows.map((r: { id: string | number }) => Number(r.id));
    const lastBefore = order.indexOf(before[before.length - 1]!);
    for (let i = 1; i <= 3; i++) {
      await log().evaluate((el) => {
        const box = el as unknown as { scrollTop: number; scrollHeight: number };
        box.scrollTop = box.scrollHeight;
      });
      await page.locator(`[data-message-id="${order[lastBefore + 30 * i]}"]`).waitFor();
    }
    const after = await shownIds();
    const from = order.indexOf(after[0]!);
    expect(after, 'one run of the conversation, without gaps or repeats').to.deep.equal(order.slice(from, from + after.length));
    expect(after, 'the window is still there').to.include.members(before);
    expect(requests.filter((q) => q.includes('after=')).length).to.be.at.least(3);
    expect(await log().getByText('Chegou agora, ainda tem bolo?').count(), 'still far from the newest').to.equal(0);
    expect(await distanceFromBottom(), 'did not jump to the end by itself').to.be.above(0);

    // The button goes back to the newest messages, with the one that arrived, at the end.
    await jump().click();
    const last = log().getByRole('article').last();
    await log().getByText('Chegou agora, ainda tem bolo?').waitFor();
    expect(await last.textContent()).to.contain('Chegou agora, ainda tem bolo?');
    await jump().waitFor({ state: 'detached' });
    await page.waitForFunction(`(() => { const el = document.querySelector('[role="log"]'); return el.scrollHeight - el.scrollTop - el.clientHeight < 5; })()`);
    expect(new URL(page.url()).search).to.equal('');
    expect((await shownIds()).length, 'only the newest page').to.be.at.most(32);

    // Back at the live end the view behaves as always: a new message shows at the end.
    await receiveInbound(api.deps, inboundMessage(conv.channel, { identity: { externalId: conv.c.visitor, name: 'Dona Cida' }, content: [{ insert: 'Obrigada!\n' }] }));
    await log().getByText('Obrigada!').waitFor();
    expect(await log().getByRole('article').last().textContent()).to.contain('Obrigada!');
  });

  it('an answer sent while reading far back goes to the end of the conversation, where it belongs', async () => {
    const { api, page, ws } = s;
    const conv = await longConversation(api, ws);
    await openHit(conv, []);
    await page.locator(`[data-message-id="${conv.hitId}"][data-search-focus]`).waitFor({ timeout: 10_000 });
    const composer = page.getByRole('combobox', { name: /Responder|Nota privada/ });
    await composer.pressSequentially('Temos sim, pode encomendar.');
    await composer.press('Enter');
    const reply = log().getByRole('article').filter({ hasText: 'Temos sim, pode encomendar.' });
    await reply.waitFor();
    await jump().waitFor({ state: 'detached' });
    expect(await log().getByRole('article').last().textContent()).to.contain('Temos sim, pode encomendar.');
    await log().locator('[data-pending]').waitFor({ state: 'detached' });
    expect(await log().getByText('Temos sim, pode encomendar.').count(), 'once').to.equal(1);
    const stored = await api.deps.knex('messages').where({ customerPlatformId: conv.c.conversationId, text: 'Temos sim, pode encomendar.' });
    expect(stored).to.have.length(1);
  });
});
