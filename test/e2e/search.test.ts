import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type { TestApi } from '../helpers/api';
import type { TestWorkspace } from '../helpers/factories';
import { makeChannel, makeConversation } from '../inbox/factories';
import { cutOff, describeOwnerPage, logIn } from './support';

/** A conversation whose word 'Tórta' is in its first message, 70 messages (three pages) before its last one. */
async function longConversation(api: TestApi, ws: TestWorkspace): Promise<{ conversationId: number; earlyId: number }> {
  const channel = await makeChannel(api.deps.knex, ws);
  const c = await makeConversation(api.deps, channel, { name: 'Dona Cida', text: 'Oi, boa tarde' });
  const start = Date.now() - 3 * 3600_000;
  const row = (i: number, text: string, sender: 'customer' | 'operator') => ({
    workspaceId: ws.id,
    customerPlatformId: c.conversationId,
    callId: c.callId,
    content: JSON.stringify([{ insert: `${text}\n` }]),
    text,
    sender,
    createdAt: new Date(start + i * 60_000),
  });
  const [early] = await api.deps.knex('messages').insert(row(0, 'Vocês fazem Tórta de limão para sábado?', 'customer')).returning('id');
  await api.deps.knex('messages').insert(Array.from({ length: 70 }, (_, i) => row(i + 1, `Mensagem de acompanhamento número ${i + 1}`, i % 2 ? 'operator' : 'customer')));
  await api.deps.knex('customer_platforms').where({ id: c.conversationId }).update({ lastMessageAt: new Date(start + 71 * 60_000) });
  return { conversationId: c.conversationId, earlyId: early.id as number };
}

const focusedLabel = (page: Page) => page.evaluate<string>('document.activeElement?.getAttribute("aria-label") ?? ""');

describeOwnerPage('e2e: one search over conversations and messages', (s, viewport) => {
  const nothingCutOff = async (where: string) => expect(await cutOff(s.page), where).to.deep.equal([]);

  /** The header's search: a field from 1440 px on, below that an icon that opens the search page. */
  async function searchFromHeader(q: string): Promise<void> {
    if (viewport.width >= 1440) {
      await s.page.getByRole('banner').getByRole('searchbox', { name: 'Buscar em conversas e mensagens' }).fill(q);
      await s.page.getByRole('banner').getByRole('searchbox', { name: 'Buscar em conversas e mensagens' }).press('Enter');
    } else {
      await s.page.getByRole('banner').getByRole('link', { name: 'Buscar' }).click();
      await s.page.waitForURL('**/search');
      const field = s.page.getByRole('main').getByRole('searchbox', { name: 'Buscar em conversas e mensagens' });
      await field.waitFor();
      expect(await focusedLabel(s.page), 'the page field takes the focus').to.equal('Buscar em conversas e mensagens');
      await s.page.keyboard.type(q);
      await s.page.keyboard.press('Enter');
    }
    await s.page.waitForURL(`**/search?q=${encodeURIComponent(q)}`);
  }

  it('finds a word of an early message, accents folded, and opens the conversation scrolled to it, highlighted', async () => {
    const { api, page, ws, owner } = s;
    const { conversationId, earlyId } = await longConversation(api, ws);
    await logIn(page, owner);
    await searchFromHeader('torta');

    const hits = page.locator('section[aria-labelledby="search-messages"] [data-search-result]');
    await hits.first().waitFor();
    expect(await hits.count()).to.equal(1);
    expect(await hits.first().locator('mark').allTextContents()).to.deep.equal(['Tórta']);
    expect(await hits.first().locator('[data-snippet]').textContent()).to.contain('Vocês fazem Tórta de limão para sábado?');
    await nothingCutOff('results');

    // Keyboard: ↓ from the field reaches the hit, Enter opens it.
    await page.getByRole('main').getByRole('searchbox', { name: 'Buscar em conversas e mensagens' }).focus();
    await page.keyboard.press('ArrowDown');
    expect(await focusedLabel(page)).to.equal('Abrir a mensagem na conversa com Dona Cida');
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/inbox/all/${conversationId}?message=${earlyId}`);

    const message = page.locator(`[data-message-id="${earlyId}"]`);
    await message.waitFor();
    await page.locator(`[data-message-id="${earlyId}"][data-search-focus]`).waitFor({ timeout: 10_000 });
    const box = (await message.boundingBox())!;
    const log = (await page.getByRole('log').boundingBox())!;
    const inView = box.y >= log.y - 1 && box.y + box.height <= log.y + log.height + 1;
    expect(inView, 'the message is inside the visible part of the conversation').to.equal(true);
    await nothingCutOff('conversation');
  });

  it("the inbox's search box leads to the same results: a resolved conversation from another segment, and the empty state", async () => {
    const { api, page, ws, owner } = s;
    const channel = await makeChannel(api.deps.knex, ws);
    const resolved = await makeConversation(api.deps, channel, { name: 'Beatriz Quitanda', text: 'Pedido entregue, obrigada' });
    await api.deps.knex('customer_platforms').where({ id: resolved.conversationId }).update({ isFinished: true });
    await makeConversation(api.deps, channel, { name: 'Caio Prado', text: 'Olá' });

    await logIn(page, owner);
    const box = page.getByRole('searchbox', { name: 'Buscar conversas' });
    await box.fill('Quitanda');
    await box.press('Enter');
    await page.waitForURL('**/search?q=Quitanda');
    const conversations = page.locator('section[aria-labelledby="search-conversations"] [data-search-result]');
    await conversations.first().waitFor();
    expect(await conversations.count()).to.equal(1);
    await conversations.first().getByText('Resolvida').waitFor();
    expect(await conversations.first().locator('mark').allTextContents()).to.deep.equal(['Quitanda']);
    await nothingCutOff('results');
    await conversations.first().click();
    await page.waitForURL(`**/inbox/archived/${resolved.conversationId}`);

    await page.goto('/search?q=jabuticaba');
    await page.getByText('Nenhum resultado para "jabuticaba"').waitFor();
    await nothingCutOff('empty');
  });
});
