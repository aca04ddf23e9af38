import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { MAX_WIDGET_TEXT } from '../../api/channels/widget/textLimit';
import { startTestApi, type TestApi } from '../helpers/api';
import { closeBrowser, ensureUiBuilt, openPage, screenshotOnFailure, type BrowserSession } from '../helpers/browser';
import { makeOperator, makeWorkspace } from '../helpers/factories';

/**
 * Issue 11 §4: the widget's text box and the server agree on the longest message, and a message the
 * server refuses says why instead of offering a retry that can never succeed. Issue 11 §3: a message the
 * server sheds for a moment (503, Retry-After) or a dropped connection goes again by itself.
 */
describe('e2e: widget sending: the length limit, refusals and a busy server', function () {
  this.timeout(90_000);
  let api: TestApi;
  let visitor: BrowserSession;
  let v: Page;
  let identifier: string;
  let channelId: number;

  before(ensureUiBuilt);
  beforeEach(async () => {
    api = await startTestApi();
    const owner = await makeOperator(api.deps.knex, api.config.jwtSecret, await makeWorkspace(api.deps.knex), 10);
    const made = await api.request('POST', '/api/integrations/widget', { token: owner.token, body: { description: 'Site', avatar: '#7A5AF8' } });
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    ({ identifier, id: channelId } = made.body.data);
    visitor = await openPage(api.config.publicUrl);
    v = visitor.page;
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      const file = await screenshotOnFailure(v, this.currentTest.fullTitle());
      console.log(`    screenshot: ${file}\n    browser errors: ${JSON.stringify(visitor.consoleErrors)}`);
    }
    await visitor.close();
    await api.close();
  });
  after(closeBrowser);

  const storedTexts = async (): Promise<string[]> =>
    (await api.deps.knex('messages').join('customer_platforms', 'customer_platforms.id', 'messages.customer_platform_id').where('customer_platforms.channel_id', channelId).select('messages.text')).map(
      (r: { text: string }) => r.text,
    );

  async function openChat() {
    await v.goto(`/widget?workspacePlatformIdentifier=${identifier}`);
    const input = v.getByRole('textbox', { name: 'Digite sua mensagem…' });
    await input.waitFor();
    return input;
  }

  it('a full text box is sent and stored: the box stops at the limit the server applies', async () => {
    const input = await openChat();
    const long = 'Preciso de ajuda com o meu pedido número 123. '.repeat(100);
    await input.fill(long);
    const typed = await input.inputValue();
    expect(typed.length, 'the box takes no more than the server does').to.equal(MAX_WIDGET_TEXT);
    await input.press('Enter');
    const bubble = v.locator('li.msg.mine');
    await bubble.locator('.meta', { hasText: /^\d{2}:\d{2}$/ }).waitFor();
    expect(await v.getByText('Não enviada').count()).to.equal(0);
    expect(typed.trim()).to.equal(typed);
    expect(await storedTexts()).to.deep.equal([typed]);
  });

  it('a message the server refuses shows the server’s reason, no retry, and goes back to the box to be fixed', async () => {
    const input = await openChat();
    // A page whose widget.js disagreed with the server (an old copy, a changed limit) could still send more.
    await v.evaluate("document.querySelector('[data-balcao-widget]').shadowRoot.querySelector('textarea').removeAttribute('maxlength')");
    const tooLong = 'x'.repeat(MAX_WIDGET_TEXT + 1);
    await input.fill(tooLong);
    await input.press('Enter');
    const bubble = v.locator('li.msg.mine');
    await bubble.locator('.meta', { hasText: `A mensagem deve ter no máximo ${MAX_WIDGET_TEXT} caracteres.` }).waitFor();
    expect(await v.getByText('Toque para tentar de novo').count()).to.equal(0);
    expect(await input.inputValue(), 'the text is back in the box').to.equal(tooLong);
    await bubble.click();
    await v.waitForTimeout(500);
    expect(await storedTexts()).to.deep.equal([]);

    // Shortened, it goes.
    await input.fill(tooLong.slice(0, MAX_WIDGET_TEXT));
    await input.press('Enter');
    await v.locator('li.msg.mine:not(.refused) .meta', { hasText: /^\d{2}:\d{2}$/ }).waitFor();
    expect((await storedTexts()).map((t) => t.length)).to.deep.equal([MAX_WIDGET_TEXT]);
  });

  it('a message refused with 503 (the api over capacity) or lost on the way goes again by itself, and is stored once', async () => {
    const input = await openChat();
    const answers: string[] = [];
    await v.route('**/api/v1/widget/messages', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      const n = answers.length;
      if (n < 2) {
        answers.push('503');
        return route.fulfill({
          status: 503,
          headers: { 'Content-Type': 'application/json', 'Retry-After': '1' },
          body: JSON.stringify({ errors: [{ descriptions: ['Muitas mensagens chegando agora. Tente novamente em instantes.'] }] }),
        });
      }
      if (n === 2) {
        answers.push('dropped');
        return route.abort('connectionreset');
      }
      answers.push('server');
      return route.continue();
    });
    await input.fill('Vocês abrem no sábado?');
    await input.press('Enter');
    const bubble = v.locator('li.msg.mine');
    await bubble.locator('.meta', { hasText: /^\d{2}:\d{2}$/ }).waitFor({ timeout: 30_000 });
    expect(answers).to.deep.equal(['503', '503', 'dropped', 'server']);
    expect(await v.getByText('Não enviada').count()).to.equal(0);
    expect(await storedTexts()).to.deep.equal(['Vocês abrem no sábado?']);
  });
});
