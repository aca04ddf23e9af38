/**
 * Scenario 7, UI weight: what a browser transfers for a route. Builds the UI with vite into a temporary
 * directory, precompresses it as every build path does (scripts/lib/uiBuild.ts precompressAssets: brotli
 * and gzip siblings of the hashed assets), serves it with the api's own middlewares (api/http/serveUi.ts,
 * api/channels/widget/serveWidgetScript.ts) on loopback, and counts the body bytes each file arrives with for
 * three Accept-Encoding headers: `br, gzip` (a browser over HTTPS), `gzip, deflate` (a browser over plain
 * HTTP, where none offers brotli) and none (raw). A route's files are index.html, the entry and its static
 * imports, plus the lazy chunks the route renders at once with their static imports, JS and CSS (vite's
 * manifest). `/inbox/all` renders App → AdminApp (the app shell, inbox list); the widget is one file.
 * Targets: inbox route JS ≤ 200 kB as sent with gzip (issue 31), widget script ≤ 50 kB as sent.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Koa from 'koa';
import { build } from 'vite';
import { loadConfig } from '../api/config';
import { serveUi } from '../api/http/serveUi';
import { serveWidgetScript } from '../api/channels/widget/serveWidgetScript';
import { precompressAssets } from '../scripts/lib/uiBuild';
import { BENCH_DIR, INTERNAL_PASSWORD, JWT_SECRET } from './lib/server';
import { check, informative, type ScenarioContext, type ScenarioResult } from './lib/scenario';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

/** The lazy modules each measured route renders on first paint (after the entry). */
const ROUTES: Record<string, string[]> = {
  '/inbox/all': ['src/AdminApp.tsx'],
  '/inbox/all/{id} (conversation open)': ['src/AdminApp.tsx', 'src/inbox/conversation/ConversationView.tsx'],
  '/user/login': ['src/auth/AuthRoutes.tsx'],
};

/** What a browser sends: over HTTPS every current browser offers brotli; over plain HTTP none does. */
const ENCODINGS = { br: 'br, gzip', gzip: 'gzip, deflate', raw: '' } as const;
type Encoding = keyof typeof ENCODINGS;
type Sizes = Record<Encoding, number>;

function closure(manifest: Record<string, ManifestChunk>, keys: string[]): string[] {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not a chunk of the build (renamed? update bench/uiWeight.ts)`);
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  keys.forEach(visit);
  return [...files];
}

/** Body bytes of GET `urlPath` as they come over the wire (Node does not decode them), and the encoding used. */
function transferred(port: number, urlPath: string, acceptEncoding: string): Promise<{ bytes: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: urlPath, agent: false, headers: acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {} }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => (res.statusCode === 200 ? resolve({ bytes, encoding: String(res.headers['content-encoding'] ?? 'identity') }) : reject(new Error(`${urlPath}: ${res.statusCode}`))));
    });
    req.on('error', reject);
  });
}

const kB = (bytes: number) => bytes / 1000;

export async function uiWeight(_ctx: ScenarioContext): Promise<ScenarioResult> {
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'balcao-ui-weight-'));
  let server: http.Server | undefined;
  try {
    await build({ configFile: 'ui/vite.config.ts', logLevel: 'warn', build: { outDir, emptyOutDir: true, manifest: true } });
    precompressAssets(outDir);
    const manifest = JSON.parse(readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
    const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
    if (!entry) throw new Error('no entry chunk in the manifest');

    const config = loadConfig({ DATA_DIR: BENCH_DIR, JWT_SECRET, MQTT_INTERNAL_PASSWORD: INTERNAL_PASSWORD, LOG_LEVEL: 'silent' });
    const app = new Koa();
    app.use(serveWidgetScript(outDir));
    app.use(serveUi(config, outDir));
    const handle = app.callback();
    const listening = http.createServer((req, res) => void handle(req, res));
    server = listening;
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
    const port = (listening.address() as AddressInfo).port;

    const measuredFiles = new Map<string, Sizes & { encodings: string[] }>();
    const sizeOf = async (urlPath: string) => {
      let s = measuredFiles.get(urlPath);
      if (!s) {
        const [br, gzip, raw] = await Promise.all((Object.keys(ENCODINGS) as Encoding[]).map((e) => transferred(port, urlPath, ENCODINGS[e])));
        s = { br: br.bytes, gzip: gzip.bytes, raw: raw.bytes, encodings: [br.encoding, gzip.encoding] };
        measuredFiles.set(urlPath, s);
      }
      return s;
    };
    const sum = (xs: Sizes[]): Sizes => xs.reduce((a, s) => ({ br: a.br + s.br, gzip: a.gzip + s.gzip, raw: a.raw + s.raw }), { br: 0, gzip: 0, raw: 0 });
    const line = (label: string, files: number, s: Sizes) =>
      `${label.padEnd(46)}${String(files).padStart(4)} files${kB(s.raw).toFixed(1).padStart(9)} kB raw${kB(s.gzip).toFixed(1).padStart(9)} kB gzip${kB(s.br).toFixed(1).padStart(9)} kB br`;

    const lines: string[] = [];
    const measured: Record<string, { files: number; all: Sizes; js: Sizes; uncompressed: string[]; largest: { file: string; gzip: number; br: number }[] }> = {};
    for (const [route, lazy] of Object.entries(ROUTES)) {
      const files = ['index.html', ...closure(manifest, [entry, ...lazy])];
      const sizes = await Promise.all(files.map(async (f) => ({ file: f, ...(await sizeOf(`/${f}`)) })));
      const js = sum(sizes.filter((s) => s.file.endsWith('.js')));
      const all = sum(sizes);
      // Files that went out as they are even to a browser offering gzip and brotli.
      const raw = sizes.filter((s) => s.encodings.every((e) => e === 'identity'));
      const uncompressed = raw.map((s) => s.file);
      const largest = [...sizes].sort((a, b) => b.gzip - a.gzip).slice(0, 5).map((s) => ({ file: s.file, gzip: s.gzip, br: s.br }));
      measured[route] = { files: files.length, all, js, uncompressed, largest };
      lines.push(line(`${route} JS`, sizes.filter((s) => s.file.endsWith('.js')).length, js));
      lines.push(line(`${route} HTML + JS + CSS`, files.length, all));
      lines.push(`  largest (gzip/br kB): ${largest.map((l) => `${l.file.replace('assets/', '')} ${kB(l.gzip).toFixed(1)}/${kB(l.br).toFixed(1)}`).join(', ')}`);
      if (raw.length) lines.push(`  sent uncompressed whatever the browser offers: ${raw.length} files, ${kB(sum(raw).raw).toFixed(1)} kB (below precompressAssets' 1 kB minimum, or index.html)`);
    }
    const widget = await sizeOf('/widget.js');
    lines.push(line('widget.js', 1, widget) + (widget.encodings.every((e) => e === 'identity') ? ' (sent uncompressed)' : ''));
    console.log(lines.join('\n'));
    const inbox = measured['/inbox/all'];
    const INBOX_TARGET_KB = 200;
    const checks = [
      check(`inbox route initial JS ≤ ${INBOX_TARGET_KB} kB as sent with gzip`, kB(inbox.js.gzip), 'kB', kB(inbox.js.gzip) <= INBOX_TARGET_KB),
      informative('inbox route initial JS as sent with brotli (HTTPS)', kB(inbox.js.br), 'kB'),
      informative('inbox route HTML + JS + CSS as sent with brotli (HTTPS)', kB(inbox.all.br), 'kB'),
      check('widget script ≤ 50 kB as sent (gzip offered)', kB(widget.gzip), 'kB', kB(widget.gzip) <= 50),
    ];
    return {
      scenario: 'ui-weight',
      target: `inbox route ≤ ${INBOX_TARGET_KB} kB gzip`,
      ratio: kB(inbox.js.gzip) / INBOX_TARGET_KB,
      met: checks.every((c) => c.met),
      rows: [],
      checks,
      notes: ['sizes in kB of 1,000 bytes: the body bytes the api sends for each Accept-Encoding (headers not counted)'],
      details: { routes: measured, widget },
    };
  } finally {
    if (server) server.close();
    rmSync(outDir, { recursive: true, force: true });
  }
}
