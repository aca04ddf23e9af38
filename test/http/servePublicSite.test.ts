import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { decodedBody as decode, rawGet as get, startUiServer, type UiServer } from '../helpers/uiServer';

/**
 * docs/public-site.md "Serving": the prerendered public pages (ui/dist/site/pages) answer their addresses with
 * the api's own address and contacts filled in, compressed, revalidated by ETag; the SPA keeps every other
 * address.
 */
describe('http: the public site is served from its prerendered files, with the configuration filled in', function () {
  let root: string;
  let url: string;
  let server: UiServer;
  const SPA = '<!doctype html><html><body><div id="root"></div></body></html>';
  const PAGE = (title: string) =>
    `<!doctype html><html><head><title>${title}</title><link rel="canonical" href="%BALCAO_ORIGIN%/pricing"/></head><body>` +
    `<a href="tel:%BALCAO_SUPPORT_TEL_1%">%BALCAO_SUPPORT_PHONE_1%</a> <a href="tel:%BALCAO_SUPPORT_TEL_2%">%BALCAO_SUPPORT_PHONE_2%</a> ` +
    `<a href="mailto:%BALCAO_SUPPORT_EMAIL%">%BALCAO_SUPPORT_EMAIL%</a> %BALCAO_UNKNOWN% ${'<p>Planos e preços do Balcão</p>'.repeat(60)}</body></html>`;

  before(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'balcao-site-'));
    mkdirSync(path.join(root, 'site/pages'), { recursive: true });
    mkdirSync(path.join(root, 'site/img'), { recursive: true });
    writeFileSync(path.join(root, 'index.html'), SPA);
    writeFileSync(path.join(root, 'site/pages/index.html'), PAGE('Início'));
    writeFileSync(path.join(root, 'site/pages/pricing.html'), PAGE('Preços'));
    writeFileSync(
      path.join(root, 'site/pages/terms.html'),
      '<!doctype html><html><body><p>%BALCAO_OPERATOR_LEGAL_NAME%, %BALCAO_OPERATOR_ADDRESS%, foro de %BALCAO_OPERATOR_FORUM%</p>' +
        '<a href="%BALCAO_OPERATOR_CONTACT_HREF%">%BALCAO_OPERATOR_CONTACT_EMAIL%</a> %BALCAO_OPERATOR_DPO_NAME% %BALCAO_OPERATOR_DPO_EMAIL% %BALCAO_OPERATOR_HOSTING%</body></html>',
    );
    writeFileSync(path.join(root, 'site/pages/robots.txt'), 'User-agent: *\nSitemap: %BALCAO_ORIGIN%/sitemap.xml\n');
    writeFileSync(path.join(root, 'site/pages/sitemap.xml'), '<urlset><url><loc>%BALCAO_ORIGIN%/</loc></url></urlset>');
    writeFileSync(path.join(root, 'site/img/whatsapp-banner.webp'), Buffer.alloc(2048, 7));
    server = await startUiServer(root, {
      PUBLIC_URL: 'https://balcao.example',
      SUPPORT_PHONES: '+55 (11) 3000-1000, (21) 99876-5432',
      SUPPORT_EMAIL: 'vendas+<b>@balcao.example',
      OPERATOR_LEGAL_NAME: 'Balcão Tecnologia <Ltda> — CNPJ 12.345.678/0001-90',
      OPERATOR_CONTACT_EMAIL: 'contato@balcao.example',
    });
    ({ url } = server);
  });
  after(() => server.close());

  it('answers / and /pricing with their page (not the SPA), the address, phones and e-mail filled in and escaped', async () => {
    for (const [p, title] of [['/', 'Início'], ['/pricing', 'Preços'], ['/pricing?utm_source=x', 'Preços']]) {
      const res = await get(`${url}${p}`);
      expect(res.status, p).to.equal(200);
      expect(res.headers['content-type'], p).to.equal('text/html; charset=utf-8');
      const html = decode(res);
      expect(html, p).to.contain(`<title>${title}</title>`);
      expect(html, p).to.contain('href="https://balcao.example/pricing"');
      expect(html, p).to.contain('<a href="tel:+551130001000">+55 (11) 3000-1000</a>');
      expect(html, p).to.contain('<a href="tel:21998765432">(21) 99876-5432</a>');
      expect(html, p).to.contain('<a href="mailto:vendas+&#60;b&#62;@balcao.example">vendas+&#60;b&#62;@balcao.example</a>');
      expect(html, `${p}: an unknown token stays as it is`).to.contain('%BALCAO_UNKNOWN%');
    }
  });

  it('names the operator on the legal pages from OPERATOR_*, escaped, and shows the placeholder of each one not set', async () => {
    const html = decode(await get(`${url}/terms`));
    expect(html).to.contain('<p>Balcão Tecnologia &#60;Ltda&#62; — CNPJ 12.345.678/0001-90, [endereço da sede do operador], foro de [cidade/UF do foro]</p>');
    expect(html).to.contain(`<a href="mailto:contato@balcao.example?subject=${encodeURIComponent('Quero ser parceiro do Balcão')}">contato@balcao.example</a>`);
    expect(html).to.contain('[nome do encarregado de dados] [e-mail do encarregado de dados] [nome do provedor de hospedagem]');
    expect(html).to.not.contain('%BALCAO_');
  });

  it('compresses by Accept-Encoding (brotli first), revalidates by ETag with a 304, and answers HEAD without a body', async () => {
    const plain = await get(`${url}/pricing`);
    const cases: Array<[string, string | undefined]> = [
      ['gzip, deflate, br', 'br'],
      ['gzip, deflate', 'gzip'],
      ['identity', undefined],
    ];
    for (const [accept, encoding] of cases) {
      const res = await get(`${url}/pricing`, { 'Accept-Encoding': accept });
      expect(res.headers['content-encoding'], accept).to.equal(encoding);
      expect(res.headers.vary, accept).to.match(/Accept-Encoding/);
      expect(res.headers['cache-control'], accept).to.equal('no-cache');
      expect(Number(res.headers['content-length']), accept).to.equal(res.body.length);
      expect(decode(res), accept).to.equal(plain.body.toString());
      if (encoding) expect(res.body.length, accept).to.be.below(plain.body.length / 4);
    }
    const etag = plain.headers.etag!;
    expect(etag).to.match(/^"[\w-]+"$/);
    const again = await get(`${url}/pricing`, { 'If-None-Match': etag });
    expect(again.status).to.equal(304);
    expect(again.body.length).to.equal(0);
    const head = await get(`${url}/pricing`, { 'Accept-Encoding': 'br' }, 'HEAD');
    expect(head.status).to.equal(200);
    expect(head.body.length).to.equal(0);
  });

  it('serves a rebuilt page at once: a new file on disk replaces the one in memory', async () => {
    const before = await get(`${url}/`);
    writeFileSync(path.join(root, 'site/pages/index.html'), PAGE('Início novo'));
    const future = new Date(Date.now() + 60_000);
    utimesSync(path.join(root, 'site/pages/index.html'), future, future);
    const after = await get(`${url}/`, { 'If-None-Match': before.headers.etag! });
    expect(after.status).to.equal(200);
    expect(after.body.toString()).to.contain('<title>Início novo</title>');
  });

  it('serves robots.txt and sitemap.xml with their types and the address; other addresses keep the SPA', async () => {
    const robots = await get(`${url}/robots.txt`);
    expect(robots.headers['content-type']).to.equal('text/plain; charset=utf-8');
    expect(decode(robots)).to.contain('Sitemap: https://balcao.example/sitemap.xml');
    const sitemap = await get(`${url}/sitemap.xml`);
    expect(sitemap.headers['content-type']).to.equal('application/xml; charset=utf-8');
    expect(decode(sitemap)).to.contain('<loc>https://balcao.example/</loc>');
    for (const p of ['/inbox', '/user/register', '/index']) {
      const res = await get(`${url}${p}`);
      expect(res.status, p).to.equal(200);
      expect(res.body.toString(), `${p}: no page file, the SPA`).to.equal(SPA);
    }
  });

  it('redirects /pricing/ to /pricing, hides the files under their own path and caches the images for a day', async () => {
    const slash = await get(`${url}/pricing/?a=1`);
    expect(slash.status).to.equal(301);
    expect(slash.headers.location).to.equal('/pricing?a=1');
    expect((await get(`${url}/site/pages/pricing.html`)).status).to.equal(404);
    expect((await get(`${url}/site/pages/robots.txt`)).status).to.equal(404);
    const img = await get(`${url}/site/img/whatsapp-banner.webp`);
    expect(img.status).to.equal(200);
    expect(img.headers['content-type']).to.equal('image/webp');
    expect(img.headers['cache-control']).to.equal('public, max-age=86400');
  });
});
