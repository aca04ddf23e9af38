import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type { TestApi } from '../helpers/api';
import { useAppPage } from '../helpers/browser';
import { makeOperator, makeWorkspace } from '../helpers/factories';
import { logIn } from './support';

/** The header's visible links, buttons and the search field whose boxes overlap another's, or pass the right edge. */
async function crowded(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const items = [...document.querySelectorAll('header a, header button, header form')]
      .filter((e) => !e.parentElement.closest('header a, header button, header form'))
      .map((e) => ({ name: (e.getAttribute('aria-label') || e.textContent || '').trim().slice(0, 30), r: e.getBoundingClientRect() }))
      .filter((x) => x.r.width > 1 && x.r.height > 1);
    const found = [];
    for (const [i, a] of items.entries()) {
      if (a.r.right > window.innerWidth) found.push(a.name + ' passes the right edge');
      for (const b of items.slice(i + 1)) {
        if (a.r.left < b.r.right - 0.5 && b.r.left < a.r.right - 0.5 && a.r.top < b.r.bottom && b.r.top < a.r.bottom) found.push(a.name + ' overlaps ' + b.name);
      }
    }
    return found;
  })()`);
}

describe('e2e: the app header at every width', function () {
  this.timeout(90_000);
  let api: TestApi;
  let page: Page;
  useAppPage((s) => ({ api, page } = s));

  it('an owner with a long name and workspace sees every area, the search, the availability and the user menu side by side from 360 to 1920 px', async () => {
    const ws = await makeWorkspace(api.deps.knex, 'Comércio de Peças e Acessórios Automotivos do Vale Ltda');
    const owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10, { name: 'Maria Aparecida dos Santos Figueiredo' });
    await logIn(page, owner);
    for (const width of [360, 390, 600, 899, 900, 1024, 1279, 1280, 1366, 1439, 1440, 1920]) {
      await page.setViewportSize({ width, height: 800 });
      await page.getByRole('banner').getByRole('button', { name: 'Abrir menu do usuário' }).waitFor();
      expect(await crowded(page), `${width} px`).to.deep.equal([]);
      const nav = page.getByRole('banner').getByRole('navigation');
      // Every area stays reachable: as a link, or (below 900 px) through the areas menu.
      if (width >= 900) expect(await nav.getByRole('link').count(), `${width} px`).to.equal(6);
      else expect(await nav.getByRole('button').count(), `${width} px`).to.equal(1);
      // From 1280 px the areas show their words; from 1440 px the search is a field in the header.
      if (width >= 900) {
        const words: boolean = await nav.getByRole('link', { name: 'Configurações' }).evaluate(`(a) => [...a.querySelectorAll('span')].some((e) => e.textContent === 'Configurações' && e.getBoundingClientRect().width > 50)`);
        expect(words, `${width} px`).to.equal(width >= 1280);
      }
      expect(await page.getByRole('banner').getByRole('searchbox').isVisible(), `${width} px`).to.equal(width >= 1440);
    }
  });
});
