import { spawnSync } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import Koa from 'koa';
import { serveWidgetScript } from '../../api/channels/widget/serveWidgetScript';

const WIDGET_SRC = path.resolve('ui/widget');
/** The target of the widget issue: a customer's page pays this on every visit. */
const MAX_GZIP_BYTES = 50 * 1024;

describe('widget: the embeddable bundle (ui/widget → widget.js)', function () {
  this.timeout(120_000);
  let outDir: string;
  let bundle: Buffer;

  before(() => {
    outDir = mkdtempSync(path.join(os.tmpdir(), 'balcao-widget-'));
    const r = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--config', 'ui/widget/vite.config.ts', '--outDir', outDir, '--logLevel', 'error'], {
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).to.equal(0);
    bundle = readFileSync(path.join(outDir, 'widget.js'));
  });

  it(`builds to one self-contained script under ${MAX_GZIP_BYTES / 1024} kB gzip`, () => {
    expect(readdirSync(outDir)).to.deep.equal(['widget.js']);
    const gz = gzipSync(bundle, { level: 9 }).length;
    console.log(`      widget.js: ${(bundle.length / 1024).toFixed(1)} kB, ${(gz / 1024).toFixed(1)} kB gzip`);
    expect(gz).to.be.lessThan(MAX_GZIP_BYTES);
    // No module syntax and no chunk imports: one classic <script> tag must be enough.
    expect(bundle.toString('utf8')).to.not.match(/\bimport\s*\(|^import\s|^export\s/m);
     // The settings schema is shared with the API and the form, never bundled: the widget imports its types only.
    expect(bundle.toString('utf8'), 'zod in widget.js').to.not.match(/ZodError|_zod/);
  });

  it('never builds markup from strings: no innerHTML, outerHTML, insertAdjacentHTML or document.write in the widget sources', () => {
    for (const file of readdirSync(WIDGET_SRC).filter((f) => f.endsWith('.ts') && f !== 'vite.config.ts')) {
      const source = readFileSync(path.join(WIDGET_SRC, file), 'utf8');
      expect(source, file).to.not.match(/\.(innerHTML|outerHTML)\b|insertAdjacentHTML|document\.write/);
    }
    expect(bundle.toString('utf8')).to.not.match(/innerHTML|insertAdjacentHTML/);
  });

  it('is served at /widget.js to any origin; revalidated when unversioned, cached a year when fingerprinted', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'balcao-widget-root-'));
    writeFileSync(path.join(root, 'widget.js'), bundle);
    const hash = createHash('sha256').update(bundle).digest('hex').slice(0, 16);
    const app = new Koa().use(serveWidgetScript(root));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const plain = await fetch(`${base}/widget.js`, { headers: { Origin: 'https://loja.exemplo.com.br' } });
      expect(plain.status).to.equal(200);
      expect(plain.headers.get('content-type')).to.equal('text/javascript; charset=utf-8');
      expect(plain.headers.get('access-control-allow-origin')).to.equal('*');
      expect(plain.headers.get('cross-origin-resource-policy')).to.equal('cross-origin');
      expect(plain.headers.get('cache-control')).to.equal('no-cache');
      expect(Buffer.from(await plain.arrayBuffer()).equals(bundle)).to.equal(true);

      // node:http, because fetch adds Cache-Control: no-cache to conditional requests.
      const etag = plain.headers.get('etag')!;
      const revalidated = await new Promise<number>((resolve, reject) => {
        // The encoding fetch got: each encoding is its own representation with its own ETag.
        http.get(`${base}/widget.js`, { headers: { 'If-None-Match': etag, 'Accept-Encoding': plain.headers.get('content-encoding') ?? 'identity' } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        }).on('error', reject);
      });
      expect(revalidated).to.equal(304);

      const pinned = await fetch(`${base}/widget.js?v=${hash}`);
      expect(pinned.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
      const stale = await fetch(`${base}/widget.js?v=0000000000000000`);
      expect(stale.headers.get('cache-control'), 'a fingerprint of another build is not cached long').to.equal('no-cache');
    } finally {
      server.close();
    }
  });

  it('is sent brotli, gzip or uncompressed as Accept-Encoding asks, each variant with its own ETag, revalidated and never immutable without ?v=', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'balcao-widget-root-'));
    writeFileSync(path.join(root, 'widget.js'), bundle);
    const app = new Koa().use(serveWidgetScript(root));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const port = (server.address() as AddressInfo).port;
    // node:http: fetch would offer its own Accept-Encoding and decode the body.
    const get = (headers: Record<string, string>) =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http.get({ host: '127.0.0.1', port, path: '/widget.js', headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        }).on('error', reject);
      });
    try {
      const cases = [
        { accept: 'br, gzip, deflate', encoding: 'br', decode: brotliDecompressSync },
        { accept: 'gzip, deflate', encoding: 'gzip', decode: gunzipSync },
        { accept: 'gzip;q=1, br;q=0', encoding: 'gzip', decode: gunzipSync },
        { accept: 'identity', encoding: undefined, decode: (b: Buffer) => b },
        { accept: undefined, encoding: undefined, decode: (b: Buffer) => b },
      ];
      const etags = new Set<string>();
      for (const c of cases) {
        const res = await get(c.accept === undefined ? {} : { 'Accept-Encoding': c.accept });
        const label = `Accept-Encoding: ${c.accept ?? '(none)'}`;
        expect(res.status, label).to.equal(200);
        expect(res.headers['content-encoding'], label).to.equal(c.encoding);
        expect(res.headers.vary, label).to.match(/Accept-Encoding/i);
        expect(res.headers['cache-control'], label).to.equal('no-cache');
        expect(Number(res.headers['content-length']), label).to.equal(res.body.length);
        if (c.encoding) expect(res.body.length, `${label}: smaller than the script`).to.be.lessThan(bundle.length / 2);
        expect(c.decode(res.body).equals(bundle), `${label}: the script's bytes`).to.equal(true);
        const etag = res.headers.etag!;
        etags.add(etag);
        const again = await get({ ...(c.accept === undefined ? {} : { 'Accept-Encoding': c.accept }), 'If-None-Match': etag });
        expect(again.status, `${label}: revalidated`).to.equal(304);
        expect(again.body.length).to.equal(0);
      }
      expect(etags.size, 'one ETag per encoding').to.equal(3);
      // A cache holding the gzip variant asks again with its ETag and brotli on offer: the other bytes, in full.
      const gz = await get({ 'Accept-Encoding': 'gzip' });
      const switched = await get({ 'Accept-Encoding': 'br, gzip', 'If-None-Match': gz.headers.etag! });
      expect(switched.status).to.equal(200);
      expect(switched.headers['content-encoding']).to.equal('br');
    } finally {
      server.close();
    }
  });
});
