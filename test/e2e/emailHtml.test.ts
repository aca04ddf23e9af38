import path from 'node:path';
import { expect } from 'chai';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { openPage, type BrowserSession } from '../helpers/browser';
import { HTML_ATTACKS } from '../channels/email/htmlAttacks';

/**
 * The e-mail HTML the inbox frame shows while remote content is blocked, run where it runs: the UI module
 * (with its DOMPurify) bundled as is and called in Chromium. No address left that the browser could fetch,
 * even before it reads the frame's CSP (a CI run saw the tracker image requested once), and nothing that
 * runs or moves the frame, however the markup is nested.
 */
describe('e-mail HTML with remote content blocked', function () {
  this.timeout(60_000);
  const tracker = 'http://127.0.0.1:4000/rastreio.png';
  let session: BrowserSession;
  let page: Page;

  before(async () => {
    const bundle = await build({
      entryPoints: [path.resolve('ui/src/settings/channels/email/emailHtml.ts')],
      bundle: true,
      format: 'iife',
      globalName: 'emailHtml',
      write: false,
      logLevel: 'silent',
    });
    session = await openPage('http://127.0.0.1:9');
    page = session.page;
    await page.setContent('<!doctype html><html><head></head><body></body></html>');
    await page.addScriptTag({ content: bundle.outputFiles[0].text });
  });
  after(async () => {
    await session?.close();
  });

  /** A function of the bundled UI module, called in the page. */
  const call = <T>(fn: 'blockedEmailHtml' | 'hasRemoteContent', html: string) => page.evaluate<T>(`window.emailHtml.${fn}(${JSON.stringify(html)})`);
  const blocked = (html: string) => call<string>('blockedEmailHtml', html);
  /** The elements the browser builds from the sanitized HTML, parsed the way the frame will parse it. */
  const tagsOf = (html: string) =>
    page.evaluate<string[]>(`[...new DOMParser().parseFromString(${JSON.stringify(`<!doctype html><html><head></head><body>${html}</body></html>`)}, 'text/html').querySelectorAll('*')].map((e) => e.localName)`);

  it('leaves no image, source, poster, background or stylesheet address that would fetch, in any quoting', async () => {
    const html = [
      `<img src="${tracker}" alt="a">`,
      `<IMG SRC='${tracker}'>`,
      `<img src=${tracker}>`,
      `<img srcset="${tracker} 2x">`,
      `<img srcset="data:image/png;base64,AA== 1x, ${tracker} 2x">`,
      `<img src="/relativo.png">`,
      `<picture><source srcset="${tracker}"></picture>`,
      `<video poster="${tracker}"></video>`,
      `<table background="${tracker}"><tr><td background='${tracker}'>x</td></tr></table>`,
      `<div style="background-image: url('${tracker}')">y</div>`,
      `<style>body { background: url(${tracker}) }</style>`,
      `<style>@im@import;port "${tracker}"; p { color: red }</style>`,
      `<link rel="stylesheet" href="${tracker}">`,
    ].join('');
    const out = await blocked(html);
    expect(out).to.not.match(/\s(src|srcset|poster|background)\s*=/i);
    expect(out).to.not.match(/url\(/i);
    expect(out).to.not.match(/@import/i);
    expect(out).to.not.include('<link');
    expect(out).to.include(`data-blocked-src="${tracker}"`);
    expect(out).to.include('color: red');
  });

  it('keeps data: images, text and links, and still drops scripts, meta and base', async () => {
    const html = '<p>Olá <b>Ana</b> <a href="https://loja.example/pedido">pedido</a></p><img src="data:image/png;base64,iVBORw0KGgo=" alt="logo"><script>alert(1)</script><meta http-equiv="refresh" content="0;url=https://x.example"><base href="https://x.example/">';
    const out = await blocked(html);
    expect(out).to.include('<img src="data:image/png;base64,iVBORw0KGgo=" alt="logo">');
    expect(out).to.include('<a href="https://loja.example/pedido">pedido</a>');
    expect(out).to.not.match(/<script|<meta|<base/i);
  });

  it('nested and broken tags (<me<meta>ta>, <ba<base>se>, <scr<script>ipt>) leave no meta, base or script, nor handlers or javascript: links', async () => {
    for (const attack of HTML_ATTACKS) {
      const out = await blocked(attack);
      const tags = await tagsOf(out);
      expect(tags.filter((t) => ['meta', 'base', 'script', 'iframe', 'form', 'svg'].includes(t)), `${attack} → ${out}`).to.deep.equal([]);
      expect(out, attack).to.not.match(/onerror|javascript:/i);
    }
  });

  it('offers "Mostrar imagens" only when something remote is named', async () => {
    expect(await call<boolean>('hasRemoteContent', `<img src="${tracker}">`)).to.equal(true);
    expect(await call<boolean>('hasRemoteContent', '<p>texto</p><img src="data:image/png;base64,AA==">')).to.equal(false);
  });
});
