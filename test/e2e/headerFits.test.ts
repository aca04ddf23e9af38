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
      const banner = page.getByRole('banner');
      const nav = banner.getByRole('navigation');
      // The header follows the width once its media queries fire: every area as a link from 900 px, the areas
      // menu below; the areas' words from 1280 px; the search as a field from 1440 px.
      const settings = nav.getByRole('link', { name: 'Configurações' });
      if (width >= 900) await settings.waitFor();
      else await nav.getByRole('button', { name: 'Abrir menu de navegação' }).waitFor();
      const word = settings.getByText('Configurações', { exact: true });
      await page.waitForFunction(`(() => {
        const link = [...document.querySelectorAll('header nav a')].find((a) => a.textContent === 'Configurações');
        const span = link && [...link.querySelectorAll('span')].find((e) => e.textContent === 'Configurações');
        const wordShown = !!span && span.getBoundingClientRect().width > 50;
        const search = document.querySelector('header input[type=search]');
        const fieldShown = !!search && search.getBoundingClientRect().width > 0;
        return window.innerWidth === ${width} && (${width < 900} || wordShown === ${width >= 1280}) && fieldShown === ${width >= 1440};
      })()`);
      expect(await crowded(page), `${width} px`).to.deep.equal([]);
      if (width >= 900) {
        expect(await nav.getByRole('link').count(), `${width} px`).to.equal(6);
        expect(((await word.boundingBox())?.width ?? 0) > 50, `${width} px: the word shown`).to.equal(width >= 1280);
      } else expect(await nav.getByRole('button').count(), `${width} px`).to.equal(1);
      expect(await banner.getByRole('searchbox').isVisible(), `${width} px`).to.equal(width >= 1440);
    }
  });
});
