import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import type { BrowserContext, Page } from 'playwright-core';
import { ANNUAL_MONTHS, EXTRA_PRICES, PLANS } from '../../api/billing/plans';
import { CHANNEL_PAGES } from '../../ui/src/public/content/channels';
import { PUBLIC_PAGE_PATHS } from '../../ui/src/public/routes';
import { startTestApi, type TestApi } from '../helpers/api';
import { closeBrowser, ensureUiBuilt, launchBrowser, screenshotOnFailure } from '../helpers/browser';
import { logIn, signUp } from './support';

/**
 * The public site (docs/public-site.md): prerendered HTML at /, /pricing, the channel pages, /terms,
 * /privacy, /ganhomais and /desenvolvimento, served by the real api. One api for the whole file (the pages
 * are read-only), a fresh browser context per test.
 */

const DIST = path.resolve('ui/dist');
const PAGES_DIR = path.join(DIST, 'site/pages');
const SUPPORT = { phones: ['+55 (11) 3000-1000', '+55 (21) 99876-5432'] as [string, string], email: 'vendas@balcao.test' };

/** "R$ 1.788" as the page prints it (Intl puts a no-break space after R$). */
const brl = (centavos: number) => new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL', minimumFractionDigits: 0 }).format(centavos / 100);
const norm = (s: string) => s.replace(/\u00a0/g, ' ');
const fileOf = (p: string) => (p === '/' ? 'index.html' : `${p.slice(1)}.html`);
/** SPEC §2: the development-contract slider's values. */
const DEV_CONTRACT_STOPS = [0, 2000, 4000, 6000, 8000, 10000, 22000];
const attr = (html: string, re: RegExp) => [...html.matchAll(re)].map((m) => m[1]!);

describe('e2e: the public site', function () {
  this.timeout(60_000);
  let api: TestApi;
  let context: BrowserContext | undefined;
  let page: Page;
  let consoleErrors: string[];

  before(async () => {
    await ensureUiBuilt();
    api = await startTestApi({ supportPhones: SUPPORT.phones, supportEmail: SUPPORT.email });
  });
  after(async () => {
    await api?.close();
    await closeBrowser();
  });

  async function open(javaScriptEnabled = true, viewport = { width: 1280, height: 800 }): Promise<Page> {
    const browser = await launchBrowser();
    context = await browser.newContext({ baseURL: api.url, locale: 'pt-BR', viewport, javaScriptEnabled });
    context.setDefaultTimeout(10_000);
    page = await context.newPage();
    consoleErrors = [];
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(`${page.url()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => consoleErrors.push(`${page.url()}: ${String(e)}`));
    return page;
  }
  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && context) {
      console.log(`    screenshot: ${await screenshotOnFailure(page, this.currentTest.fullTitle())}\n    browser errors: ${JSON.stringify(consoleErrors)}`);
    }
    await context?.close();
    context = undefined;
  });

  it('serves every public page as its own HTML: title, description, canonical link and Open Graph, one h1, no console error', async () => {
    await open();
    const titles = new Set<string>();
    const descriptions = new Set<string>();
    for (const p of PUBLIC_PAGE_PATHS) {
      const res = await page.goto(p);
      expect(res?.status(), p).to.equal(200);
      const headers = res!.headers();
      expect(headers['content-type'], p).to.equal('text/html; charset=utf-8');
      expect(headers['cache-control'], p).to.equal('no-cache');
      expect(headers.etag, p).to.match(/^"/);
      const title = await page.title();
      const description = await page.locator('meta[name="description"]').getAttribute('content');
      expect(title, p).to.have.length.above(10);
      expect(description, p).to.have.length.within(50, 160);
      titles.add(title);
      descriptions.add(description!);
      const url = `${api.config.publicUrl}${p}`;
      expect(await page.locator('link[rel="canonical"]').getAttribute('href'), p).to.equal(url);
      expect(await page.locator('meta[property="og:url"]').getAttribute('content'), p).to.equal(url);
      expect(await page.locator('meta[property="og:title"]').getAttribute('content'), p).to.equal(title);
      expect(await page.locator('meta[property="og:description"]').getAttribute('content'), p).to.equal(description);
      expect(await page.locator('meta[property="og:image"]').getAttribute('content'), p).to.match(new RegExp(`^${api.config.publicUrl}/site/img/.+\\.(webp|avif|png|jpe?g)$`));
      expect(await page.locator('h1').count(), `${p}: one h1`).to.equal(1);
      expect(await page.locator('html').getAttribute('lang'), p).to.equal('pt-BR');
      // The shared header and footer: Preços, every channel page, Termos, Privacidade, Entrar, Comece grátis.
      for (const href of ['/pricing', ...CHANNEL_PAGES.map((c) => c.path), '/terms', '/privacy', '/user/login', '/user/register']) {
        expect(await page.locator(`a[href="${href}"]`).count(), `${p} links to ${href}`).to.be.above(0);
      }
      expect(await page.content(), `${p}: every token filled`).not.to.contain('%BALCAO_');
    }
    expect(titles.size, 'a title per page').to.equal(PUBLIC_PAGE_PATHS.length);
    expect(descriptions.size, 'a description per page').to.equal(PUBLIC_PAGE_PATHS.length);
    expect(consoleErrors).to.deep.equal([]);
  });

  it('/pricing: the three plans at 149, 449 and 799 a month and their annual price, the add-ons, Pix or Boleto, 16 MB and the FAQ with both trial readings', async () => {
    await open();
    await page.goto('/pricing');
    const text = norm(await page.locator('main').innerText());
    const card = (name: string) => page.locator('li.plan', { has: page.getByRole('heading', { name, exact: true }) });
    // SPEC §1, literally, and what api/billing/plans.ts charges.
    for (const [name, price] of [['Basic', 149], ['Business', 449], ['Enterprise', 799]] as const) {
      const plan = Object.values(PLANS).find((p) => p.name === name)!;
      expect(plan.monthlyPrice).to.equal(price * 100);
      const cardText = norm(await card(name).innerText());
      expect(cardText, name).to.contain(`R$ ${price}/mês`);
      expect(cardText, name).to.contain(`ou ${norm(brl(plan.monthlyPrice * ANNUAL_MONTHS))} por ano`);
      expect(cardText, name).to.contain(`${plan.included.agents} ${plan.included.agents === 1 ? 'agente ativo' : 'agentes ativos'}`);
      expect(cardText, name).to.contain('1 linha de WhatsApp');
    }
    expect(norm(brl(PLANS.basic.monthlyPrice * 12))).to.equal('R$ 1.788');
    expect(norm(await card('Enterprise').innerText())).to.contain('1 campanha em paralelo');
    expect(norm(await card('Basic').innerText())).to.contain('Sem campanhas');
    expect(norm(await card('Business').innerText())).to.contain('Bot personalizado');
    expect(EXTRA_PRICES).to.include({ agents: 49_00, whatsapp: 99_00, campaign: 149_00 });
    for (const extra of ['Agente adicional\nR$ 49 por mês', 'Linha de WhatsApp adicional\nR$ 99 por mês', 'Campanha em paralelo adicional\nR$ 149 por mês']) {
      expect(text).to.contain(extra);
    }
    for (const fact of ['Pix ou Boleto', '16 MB', 'Plano personalizado', 'Fale conosco']) expect(text).to.contain(fact);
    const faq = norm(await page.locator('#faq').innerText());
    expect(faq).to.contain('Perguntas frequentes');
    expect(faq, 'the landing reading').to.contain('30 dias, sem cartão de crédito, com todas as funcionalidades exceto Campanhas');
    expect(faq, 'the terms reading').to.contain('7 dias por e-mail empresarial único');
    expect(consoleErrors).to.deep.equal([]);
  });

  it("'Fale conosco' opens the custom plan's contact dialog with the configured phones and e-mail; Escape and 'Fechar' close it", async () => {
    await open();
    await page.goto('/pricing');
    const dialog = page.getByRole('dialog', { name: 'Fale conosco' });
    expect(await dialog.isVisible()).to.equal(false);
    await page.getByRole('link', { name: 'Fale conosco' }).click();
    await dialog.waitFor();
    const text = await dialog.innerText();
    for (const contact of [...SUPPORT.phones, SUPPORT.email]) expect(text).to.contain(contact);
    expect(await dialog.getByRole('link', { name: SUPPORT.phones[1] }).getAttribute('href')).to.equal('tel:+5521998765432');
    expect(await dialog.getByRole('link', { name: SUPPORT.email }).getAttribute('href')).to.equal(`mailto:${SUPPORT.email}`);
    expect(new URL(page.url()).hash, 'a modal, not a jump').to.equal('');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('link', { name: 'Fale conosco' }).click();
    await dialog.getByRole('link', { name: 'Fechar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // A shared address with #contato opens the dialog as a modal, and once closed it stays closed.
    await page.goto('/terms');
    await page.goto('/pricing#contato');
    await dialog.waitFor();
    expect(await dialog.getAttribute('open'), 'a modal, not the :target box').to.equal('');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    // So does an address typed on the page.
    await page.evaluate("location.hash = 'faq'");
    await page.evaluate("location.hash = 'contato'");
    await dialog.waitFor();
    expect(consoleErrors).to.deep.equal([]);
  });

  it('every link, image and script of every page answers 200, and every #anchor exists on its page', async () => {
    const html = new Map<string, string>();
    for (const p of PUBLIC_PAGE_PATHS) {
      const res = await fetch(`${api.url}${p}`);
      expect(res.status, p).to.equal(200);
      html.set(p, await res.text());
    }
    const targets = new Map<string, string>();
    for (const [p, body] of html) {
      for (const ref of attr(body, /\s(?:href|src)="([^"]+)"/g)) {
        if (/^(mailto|tel):/.test(ref)) continue;
        const url = new URL(ref.replace(/&amp;/g, '&'), `${api.config.publicUrl}${p}`);
        expect(url.origin, `${p} → ${ref}: no other site`).to.equal(api.config.publicUrl);
        if (!targets.has(url.href)) targets.set(url.href, p);
      }
    }
    expect(targets.size).to.be.above(30);
    for (const [href, from] of targets) {
      const url = new URL(href);
      const res = await fetch(`${api.url}${url.pathname}${url.search}`);
      expect(res.status, `${href} (linked from ${from})`).to.equal(200);
      await res.arrayBuffer();
      if (url.hash) {
        const body = html.get(url.pathname) ?? '';
        expect(body, `${href}: the anchor exists`).to.contain(`id="${decodeURIComponent(url.hash.slice(1))}"`);
      }
    }
  });

  it('reads with JavaScript off: every heading, the prices, the e-mail box and the contact box work without a script', async () => {
    await open(false);
    for (const p of PUBLIC_PAGE_PATHS) {
      await page.goto(p);
      const h1 = page.locator('h1');
      expect(await h1.isVisible(), p).to.equal(true);
      expect((await h1.innerText()).length, p).to.be.above(5);
    }
    for (const c of CHANNEL_PAGES) {
      await page.goto(c.path);
      await page.getByRole('heading', { level: 1, name: c.heading }).waitFor();
      const banner = page.locator(`img[src="${c.banner.src}"]`);
      expect(await banner.getAttribute('width')).to.equal(String(c.banner.width));
      expect(await banner.getAttribute('height')).to.equal(String(c.banner.height));
      expect(await banner.evaluate((img: any) => img.complete && img.naturalWidth > 0), `${c.path}: the banner loads`).to.equal(true);
    }
    await page.goto('/pricing');
    for (const price of ['R$ 149', 'R$ 449', 'R$ 799']) expect(await page.getByText(price, { exact: false }).first().isVisible(), price).to.equal(true);
    const dialog = page.locator('#contato');
    expect(await dialog.isVisible()).to.equal(false);
    await page.getByRole('link', { name: 'Fale conosco' }).click();
    expect(new URL(page.url()).hash).to.equal('#contato');
    expect(await dialog.isVisible(), 'the box shows by :target').to.equal(true);
    expect(await dialog.innerText()).to.contain(SUPPORT.email);
    await dialog.getByRole('link', { name: 'Fechar' }).click();
    expect(await dialog.isVisible()).to.equal(false);

    await page.goto('/desenvolvimento');
    expect(await page.getByRole('slider').count(), 'the slider needs JavaScript: hidden without').to.equal(0);
    const table = norm(await page.locator('table').first().innerText());
    for (const stop of DEV_CONTRACT_STOPS) expect(table).to.contain(norm(brl(stop * 100)));

    await page.goto('/');
    await page.getByLabel('Seu e-mail de trabalho').fill('ana@empresa.com.br');
    await page.getByRole('button', { name: 'Começar teste grátis' }).click();
    await page.waitForURL('**/user/register?email=*');
    expect(new URL(page.url()).searchParams.get('email')).to.equal('ana@empresa.com.br');
  });

  it('the landing offers the 30-day trial and its e-mail box opens /user/register with the e-mail filled in (phone width)', async () => {
    await open(true, { width: 390, height: 844 });
    await page.goto('/');
    await page.getByText('Teste grátis por 30 dias, sem cartão de crédito, com todas as funcionalidades exceto Campanhas.').waitFor();
    await page.getByLabel('Seu e-mail de trabalho').fill('bia@empresa.com.br');
    await page.getByRole('button', { name: 'Começar teste grátis' }).click();
    await page.waitForURL('**/user/register?email=*');
    await page.getByRole('heading', { name: 'Crie sua conta' }).waitFor();
    expect(await page.getByLabel('E-mail de trabalho').inputValue()).to.equal('bia@empresa.com.br');
    // Nothing of the page is wider than the phone.
    await page.goto('/pricing');
    expect(await page.evaluate('document.documentElement.scrollWidth')).to.be.at.most(390);
    expect(consoleErrors).to.deep.equal([]);
  });

  it('a visitor with a session who opens / goes to /inbox (the other public pages stay); the SPA and its service worker hand public addresses to the server', async () => {
    await open();
    // The SPA registers the service worker (ui/pwa/sw.js); once it controls the page, a public address still
    // comes from the server: the login page's brand link leads to the prerendered landing, not an SPA copy.
    await page.goto('/user/login');
    await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
    await page.reload();
    expect(await page.evaluate('navigator.serviceWorker.controller !== null'), 'the worker controls the page').to.equal(true);
    await page.getByRole('link', { name: 'Balcão', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Todos os seus canais de atendimento em uma só caixa de entrada' }).waitFor();
    expect(await page.locator('#root').count(), 'the prerendered page, not the SPA').to.equal(0);
    // Offline, the worker answers a navigation with the cached SPA shell: it says so instead of reloading forever.
    await context!.setOffline(true);
    await page.goto('/pricing');
    await page.getByRole('heading', { name: 'Não foi possível abrir esta página' }).waitFor();
    await context!.setOffline(false);

    const account = await signUp(api);
    await logIn(page, account);
    await page.goto('/');
    await page.waitForURL('**/inbox/all');
    await page.goto('/pricing');
    await page.getByRole('heading', { level: 1, name: 'Planos e preços' }).waitFor();
    expect(new URL(page.url()).pathname).to.equal('/pricing');
  });

  it('/desenvolvimento: the price slider is an island hydrated on Preact and walks through 0 to 22000', async () => {
    await open();
    await page.goto('/desenvolvimento');
    const slider = page.getByRole('slider');
    await slider.waitFor();
    await slider.focus();
    await page.keyboard.press('Home');
    const result = page.locator('[data-island] output');
    await page.waitForFunction((el: any) => el.textContent.includes('R$\u00a00'), await result.elementHandle());
    const seen: string[] = [];
    for (let i = 0; i < DEV_CONTRACT_STOPS.length; i++) {
      seen.push(norm(await result.locator('.site-dev-price').innerText()));
      await page.keyboard.press('ArrowRight');
    }
    expect(seen).to.deep.equal(DEV_CONTRACT_STOPS.map((s) => norm(brl(s * 100))));
    expect(consoleErrors).to.deep.equal([]);
  });

  it('serves sitemap.xml with every public page and robots.txt pointing to it, both for the configured address', async () => {
    const sitemap = await fetch(`${api.url}/sitemap.xml`);
    expect(sitemap.status).to.equal(200);
    expect(sitemap.headers.get('content-type')).to.equal('application/xml; charset=utf-8');
    const locs = attr(await sitemap.text(), /<loc>([^<]+)<\/loc>/g);
    expect(locs).to.deep.equal(PUBLIC_PAGE_PATHS.map((p) => `${api.config.publicUrl}${p}`));
    const robots = await fetch(`${api.url}/robots.txt`);
    expect(robots.status).to.equal(200);
    expect(robots.headers.get('content-type')).to.equal('text/plain; charset=utf-8');
    const text = await robots.text();
    expect(text).to.contain(`Sitemap: ${api.config.publicUrl}/sitemap.xml`);
    expect(text).to.match(/^User-agent: \*$/m);
    expect(text).to.match(/^Disallow: \/api\/$/m);
    expect(text, 'the public pages stay crawlable').not.to.match(/^Disallow: \/$/m);
  });
});

describe('public site build: what each page loads', function () {
  before(async () => {
    await ensureUiBuilt();
  });

  it('every public page is a built file, loads at most 30 kB (gzip) of JavaScript and none of react-admin or MUI, inlines its CSS, sizes its images in modern formats and uses no web font', () => {
    const files = readdirSync(PAGES_DIR).filter((f) => f.endsWith('.html'));
    expect(files.sort()).to.deep.equal(PUBLIC_PAGE_PATHS.map(fileOf).sort());
    const report: string[] = [];
    for (const file of files) {
      const html = readFileSync(path.join(PAGES_DIR, file), 'utf8');
      const scripts = attr(html, /<script[^>]*\ssrc="([^"]+)"/g);
      expect(html, `${file}: every script is a file (the CSP allows no inline script)`).not.to.match(/<script(?![^>]*\ssrc=)[^>]*>/);
      let gzip = 0;
      for (const src of scripts) {
        expect(src, file).to.match(/^\/assets\/[\w.-]+\.js$/);
        const body = readFileSync(path.join(DIST, src));
        expect(body.toString(), `${file}: ${src} holds no react-admin or MUI`).not.to.match(/react-admin|RaLayout|MuiButtonBase|@mui\/|emotion/i);
        gzip += gzipSync(body, { level: 9 }).length;
      }
      report.push(`${file} ${gzip} B`);
      expect(gzip, `${file}: JavaScript as sent with gzip`).to.be.at.most(30_000);
      expect(attr(html, /<style>/g).length, `${file}: one inlined stylesheet`).to.equal(1);
      expect(html, `${file}: no stylesheet to fetch`).not.to.match(/rel="stylesheet"/);
      expect(html, `${file}: system fonts only`).not.to.match(/@font-face|fonts\.googleapis/);
      for (const img of html.match(/<img[^>]*>/g) ?? []) {
        expect(img, file).to.match(/\swidth="\d+"/);
        expect(img, file).to.match(/\sheight="\d+"/);
        expect(img, file).to.match(/\ssrc="[^"]+\.(webp|avif|svg)"/);
      }
    }
    // The interactive page carries the island; the others only the head script.
    const islands = attr(readFileSync(path.join(PAGES_DIR, 'desenvolvimento.html'), 'utf8'), /<script[^>]*\ssrc="([^"]+)"/g);
    expect(islands).to.have.length(2);
    expect(attr(readFileSync(path.join(PAGES_DIR, 'index.html'), 'utf8'), /<script[^>]*\ssrc="([^"]+)"/g)).to.have.length(1);
  });
});
