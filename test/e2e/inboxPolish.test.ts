import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';
import type { TestApi } from '../helpers/api';
import { useAppPage } from '../helpers/browser';
import { makeOperator, makeWorkspace, type TestOperator } from '../helpers/factories';
import { makeChannel, makeConversation } from '../inbox/factories';
import { logIn, newAccount, signUpInPage } from './support';

/** Screenshots for a human look (test-results/ is ignored by git). */
async function shot(page: Page, name: string): Promise<void> {
  const dir = path.resolve('test-results/polish');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
}

/** Whether an input's placeholder fits its text box, measured with the input's own font. */
async function placeholderFits(input: Locator): Promise<{ text: number; box: number }> {
  return input.evaluate((el) => {
    const i = el as unknown as { placeholder: string; clientWidth: number };
    const style = (globalThis as unknown as { getComputedStyle: (e: unknown) => Record<string, string> }).getComputedStyle(el);
    const doc = (globalThis as unknown as { document: { createElement: (t: string) => { getContext: (k: string) => { font: string; measureText: (s: string) => { width: number } } } } }).document;
    const ctx = doc.createElement('canvas').getContext('2d');
    ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    return { text: Math.ceil(ctx.measureText(i.placeholder).width), box: i.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) };
  });
}

/** Whether an element's text is cut (ellipsis): its content is wider than its box. */
const isCut = (el: Locator) => el.evaluate((e) => (e as unknown as { scrollWidth: number; clientWidth: number }).scrollWidth > (e as unknown as { clientWidth: number }).clientWidth);

/** Issue 11 §4 "polish seen in the screenshots", each checked in Chromium. */
describe('e2e: inbox polish (search box, counts, header, creating screen, filter icons)', function () {
  this.timeout(90_000);
  let api: TestApi;
  let page: Page;
  let owner: TestOperator;

  useAppPage((s) => ({ api, page } = s));
  beforeEach(async () => {
    const ws = await makeWorkspace(api.deps.knex);
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10, { name: 'Ana Agente' });
    const channel = await makeChannel(api.deps.knex, ws, 'widget', { name: 'Site', description: 'Chat do site' });
    await makeConversation(api.deps, channel, { name: 'Maria Cliente', text: 'Preciso de ajuda' });
  });

  it('the sidebar reads each segment whole: a long name wraps instead of ending in an ellipsis', async () => {
    await logIn(page, owner);
    const names = page.locator('[data-segment-link] > span');
    await names.first().waitFor();
    expect(await names.allInnerTexts()).to.include('Caixa de entrada');
    for (const name of await names.all()) expect(await isCut(name), await name.innerText()).to.equal(false);
  });

  it('the search box has one clear button and its whole placeholder, even at the narrowest list', async () => {
    await logIn(page, owner);
    const search = page.getByRole('searchbox', { name: 'Buscar conversas' });
    for (const width of [350, 280]) {
      await page.evaluate(`localStorage.setItem('balcao.inbox.listWidth', '${width}')`);
      await page.reload();
      await search.waitFor();
      const fit = await placeholderFits(search);
      expect(fit.text, `placeholder at a ${width} px list: ${JSON.stringify(fit)}`).to.be.at.most(fit.box);
    }
    await search.fill('maria');
    await page.getByRole('button', { name: 'Limpar busca' }).waitFor();
    // getComputedStyle cannot read the pseudo-element: look for a style rule that hides it on this input.
    const hidden = await search.evaluate(`(() => {
      const el = document.activeElement && document.activeElement.tagName === 'INPUT' ? document.activeElement : document.querySelector('input[type=search]');
      const rules = [...document.styleSheets].flatMap((sheet) => [...sheet.cssRules]);
      return rules.some((r) => r.selectorText && r.selectorText.includes('::-webkit-search-cancel-button') && r.style.display === 'none'
        && r.selectorText.split(',').some((sel) => sel.includes('::-webkit-search-cancel-button') && el.matches(sel.replace('::-webkit-search-cancel-button', '').trim())));
    })()`);
    expect(hidden, 'the native clear button of type=search is hidden').to.equal(true);
    await shot(page, 'search');
  });

  it('says what each count counts: unread on the Inbox badge, pending next to it', async () => {
    await logIn(page, owner);
    const badge = page.getByRole('link', { name: /^Caixa de entrada, 1 não lida/ }).getByTestId('unread-badge');
    await badge.waitFor();
    expect(await badge.getAttribute('title')).to.equal('1 não lida');
    const nothing = page.getByTestId('nothing-selected');
    await nothing.getByTestId('unread-count').filter({ hasText: '1 conversa não lida' }).waitFor();
    await nothing.getByTestId('pending-count').filter({ hasText: '1 conversa pendente' }).waitFor();
    expect(await nothing.getByTestId('pending-count').getAttribute('title')).to.contain('sem agente');
    await shot(page, 'counts');
  });

  it("the header's bot selector shows 'Atendimento manual' whole, and 'Reabrir conversa' looks like the button it is", async () => {
    await logIn(page, owner);
    await page.getByRole('option', { name: /Maria Cliente/ }).click();
    const bot = page.getByTestId('bot-menu');
    await bot.getByText('Atendimento manual').waitFor();
    expect(await isCut(bot.locator('.label')), "'Atendimento manual' cut").to.equal(false);
    await shot(page, 'header');

    await page.getByRole('button', { name: 'Resolver' }).click();
    // In the header and on the resolved banner, once the resolve call has answered.
    const reopen = page.locator('button:not([disabled])', { hasText: 'Reabrir conversa' });
    await page.getByTestId('resolved-banner').locator('button:not([disabled])').waitFor();
    expect(await reopen.count()).to.equal(2);
    await page.mouse.move(600, 400); // off the header button the click left hovered
    const primary = { background: 'rgb(15, 118, 110)', color: 'rgb(255, 255, 255)' };
    let looks: { background: string; color: string }[] = [];
    // Filled buttons in the primary colour with white text, like 'Resolver' (outlined ones read as disabled);
    // polled, since MUI fades the colours in from the disabled state.
    for (let i = 0; i < 30; i++) {
      looks = await reopen.evaluateAll((els) =>
        els.map((el) => {
          const s = (globalThis as unknown as { getComputedStyle: (e: unknown) => { backgroundColor: string; color: string } }).getComputedStyle(el);
          return { background: s.backgroundColor, color: s.color };
        }),
      );
      if (looks.every((l) => l.background === primary.background && l.color === primary.color)) break;
      await page.waitForTimeout(100);
    }
    expect(looks).to.deep.equal([primary, primary]);
    await shot(page, 'reopen');
  });

  it("the saved-filter icon picker draws its icons without an emoji font", async () => {
    await logIn(page, owner);
    await page.getByRole('button', { name: 'Gerenciar filtros' }).click();
    await page.getByRole('menuitem', { name: 'Novo filtro' }).click();
    const editor = page.getByRole('dialog', { name: 'Novo filtro' });
    const picker = editor.getByRole('group').filter({ has: page.getByRole('button', { name: 'Sem ícone' }) });
    const buttons = picker.getByRole('button');
    await buttons.first().waitFor();
    // A string runs in the page (the test tsconfig has no DOM types).
    const drawn = await page.evaluate<{ text: string; svg: boolean; dot: boolean }[]>(`(() => {
      const group = document.querySelector('[role="dialog"] button[aria-label="Sem ícone"]').closest('[role="group"]');
      return [...group.querySelectorAll('button')].map((b) => ({ text: (b.textContent || '').trim(), svg: b.querySelector('svg') !== null, dot: b.querySelector('[data-segment-dot]') !== null }));
    })()`);
    expect(drawn.length).to.be.greaterThan(10);
    for (const d of drawn) expect(d.text, 'no glyph that needs an emoji font').to.equal('');
    for (const d of drawn) expect(d.svg || d.dot, 'an icon or a colour dot').to.equal(true);
    await editor.getByRole('button', { name: 'Ícone estrela' }).click();
    await shot(page, 'icon-picker');
  });

  it("shows 'Criando seu workspace' once on /user/register/creating", async () => {
    const account = newAccount();
    await signUpInPage(page, account);
    await page.waitForURL('**/user/register/creating');
    await page.getByRole('heading', { name: 'Criando seu workspace' }).waitFor();
    const body = await page.locator('body').innerText();
    expect(body.match(/Criando seu workspace/g)?.length, body).to.equal(1);
    await shot(page, 'creating');
    await page.waitForURL('**/inbox/all', { timeout: 10_000 });
  });
});
