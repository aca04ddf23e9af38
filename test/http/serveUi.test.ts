import { mkdirSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import { precompressAssets } from '../../scripts/lib/uiBuild';
import { rawGet as get, startUiServer, type UiServer } from '../helpers/uiServer';

/**
 * Issue 11 §5: the hashed UI assets go out precompressed (brotli or gzip, by Accept-Encoding, written at
 * build time) with a year of immutable caching; index.html revalidates.
 */
describe('http: the built UI is served precompressed, hashed assets cached for good and index.html revalidated', function () {
  this.timeout(30_000);
  let root: string;
  let url: string;
  let server: UiServer;
  const APP_JS = `${'export const texto = "Olá, mundo! Atendimento em um só lugar.";\n'.repeat(400)}`;
  const TINY_CSS = 'body{margin:0}';
  const INDEX = '<!doctype html><html><head><script type="module" src="/assets/app-3f9a1c.js"></script></head><body></body></html>';

  before(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'balcao-ui-'));
    mkdirSync(path.join(root, 'assets'));
    writeFileSync(path.join(root, 'index.html'), INDEX);
    writeFileSync(path.join(root, 'assets/app-3f9a1c.js'), APP_JS);
    writeFileSync(path.join(root, 'assets/tiny-77aa00.css'), TINY_CSS);
    writeFileSync(path.join(root, 'assets/logo-1b2c3d.png'), Buffer.alloc(4096, 1));
    writeFileSync(path.join(root, 'robots.txt'), 'User-agent: *\n'.repeat(200));

    server = await startUiServer(root);
    ({ url } = server);
  });
  after(() => server.close());

  it('writes .br and .gz next to each compressible hashed asset at build time, and only what is missing or stale', () => {
    expect(precompressAssets(root)).to.equal(2);
    expect(readdirSync(path.join(root, 'assets')).sort()).to.deep.equal(['app-3f9a1c.js', 'app-3f9a1c.js.br', 'app-3f9a1c.js.gz', 'logo-1b2c3d.png', 'tiny-77aa00.css']);
    expect(readdirSync(root), 'only hashed assets: the rest revalidates and stays as it is').not.to.include('robots.txt.gz');
    expect(precompressAssets(root), 'a second run has nothing to do').to.equal(0);
    const future = new Date(Date.now() + 60_000);
    utimesSync(path.join(root, 'assets/app-3f9a1c.js'), future, future);
    expect(precompressAssets(root), 'a rebuilt asset gets fresh variants').to.equal(2);
  });

  it('sends brotli when accepted, else gzip, else the file as it is — always with Vary: Accept-Encoding and a year of immutable caching', async () => {
    precompressAssets(root);
    const asset = `${url}/assets/app-3f9a1c.js`;
    const cases: Array<[Record<string, string>, string | undefined]> = [
      [{ 'Accept-Encoding': 'gzip, deflate, br, zstd' }, 'br'],
      [{ 'Accept-Encoding': 'br' }, 'br'],
      [{ 'Accept-Encoding': 'gzip' }, 'gzip'],
      [{ 'Accept-Encoding': 'br;q=0, gzip' }, 'gzip'],
      [{ 'Accept-Encoding': 'identity' }, undefined],
      [{}, undefined],
    ];
    for (const [headers, encoding] of cases) {
      const res = await get(asset, headers);
      const label = JSON.stringify(headers);
      expect(res.status, label).to.equal(200);
      expect(res.headers['content-encoding'], label).to.equal(encoding);
      expect(res.headers.vary, label).to.match(/Accept-Encoding/i);
      expect(res.headers['cache-control'], label).to.equal('public, max-age=31536000, immutable');
      expect(res.headers['content-type'], label).to.equal('text/javascript; charset=utf-8');
      expect(Number(res.headers['content-length']), label).to.equal(res.body.length);
      const text = (encoding === 'br' ? brotliDecompressSync(res.body) : encoding === 'gzip' ? gunzipSync(res.body) : res.body).toString();
      expect(text, label).to.equal(APP_JS);
      if (encoding) expect(res.body.length, label).to.be.below(APP_JS.length / 5);
    }
    const head = await get(asset, { 'Accept-Encoding': 'br' }, 'HEAD');
    expect(head.headers['content-encoding']).to.equal('br');
    expect(head.body.length).to.equal(0);
  });

  it('sends assets without a compressed variant as they are', async () => {
    for (const p of ['/assets/tiny-77aa00.css', '/assets/logo-1b2c3d.png']) {
      const res = await get(`${url}${p}`, { 'Accept-Encoding': 'gzip, br' });
      expect(res.status, p).to.equal(200);
      expect(res.headers['content-encoding'], p).to.equal(undefined);
      expect(res.headers['cache-control'], p).to.equal('public, max-age=31536000, immutable');
    }
  });

  it('sends index.html (directly and as the SPA fallback) with no-cache, so a new build is picked up at once', async () => {
    for (const p of ['/', '/index.html', '/inbox/conversation/12', '/settings/channels']) {
      const res = await get(`${url}${p}`, { 'Accept-Encoding': 'gzip, br' });
      expect(res.status, p).to.equal(200);
      expect(res.headers['cache-control'], p).to.equal('no-cache');
      expect(res.headers['content-encoding'], p).to.equal(undefined);
      expect(res.body.toString(), p).to.equal(INDEX);
    }
  });

  it('answers a missing hashed asset with 404 and a path that does not decode with 400, in the error shape', async () => {
    const missing = await get(`${url}/assets/app-000000.js`);
    expect(missing.status).to.equal(404);
    expect(JSON.parse(missing.body.toString()).errors[0].type).to.equal('NotFoundError');
    for (const p of ['/%ff', '/assets/%c3.js', '/%E0%A4%A']) {
      const res = await get(`${url}${p}`);
      expect(res.status, p).to.equal(400);
      expect(JSON.parse(res.body.toString()).errors[0].type, p).to.equal('ValidationError');
    }
  });
});
