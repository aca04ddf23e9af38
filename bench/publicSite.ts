/**
 * Public site (docs/public-site.md): Lighthouse (npm `lighthouse`, its default mobile preset: a phone's
 * screen, simulated slow 4G and a 4× slower CPU) on `/`, `/pricing` and `/whatsapp`, served on loopback by
 * the real api (bench/servers/appServer.ts over the bench database, the built ui/dist), in Debian's
 * Chromium started by chrome-launcher. Prints the four category scores of each page (performance,
 * accessibility, best practices, SEO; target ≥ 95 each) and each page's bytes as sent: every same-origin
 * file the page loaded (HTML, CSS, JS, images), fetched again with `Accept-Encoding: gzip, deflate` (a
 * browser over plain HTTP) and with `br, gzip` (over HTTPS), body bytes only.
 */
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { ensureUiBuilt } from '../scripts/lib/uiBuild';
import { coreLayout } from './lib/pin';
import { withServer } from './lib/server';
import { check, informative, type Check, type ScenarioContext, type ScenarioResult } from './lib/scenario';

const PAGES = ['/', '/pricing', '/whatsapp'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const TARGET = 95;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface NetworkItem {
  url: string;
  resourceType?: string;
  transferSize?: number;
  statusCode?: number;
}

/** Body bytes of GET `url` as they come over the wire with this Accept-Encoding. */
function bodyBytes(url: string, acceptEncoding: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, headers: { 'Accept-Encoding': acceptEncoding } }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => (res.statusCode === 200 ? resolve(bytes) : reject(new Error(`${url}: ${res.statusCode}`))));
    });
    req.on('error', reject);
  });
}

const kB = (b: number) => b / 1000;

/**
 * bench/run.ts pins the bench process to one core (bench/lib/pin.ts), and Chromium would inherit that: its
 * browser, renderer and GPU processes squeezed on one core inflate Lighthouse's main-thread figures (a phone
 * has several cores). Chromium is started with every core, and the pin restored after.
 */
function withAllCores<T>(body: () => Promise<T>): Promise<T> {
  const cores = os.cpus().length;
  try {
    execFileSync('taskset', ['-a', '-p', '-c', `0-${cores - 1}`, String(process.pid)], { stdio: 'ignore' });
  } catch {
    return body();
  }
  return body().finally(() => {
    if (process.env.BENCH_PIN !== '0') coreLayout();
  });
}

export async function publicSite(ctx: ScenarioContext): Promise<ScenarioResult> {
  ensureUiBuilt(root);
  const checks: Check[] = [];
  const lines: string[] = [];
  const details: Record<string, unknown> = {};
  // PUBLIC_URL as a deployment has it: the canonical links and the sitemap name the site's own address.
  await withServer(ctx, 'bench/servers/appServer.ts', { PUBLIC_URL: 'https://balcao.example', LOG_LEVEL: 'silent' }, async (port) => {
    const origin = `http://127.0.0.1:${port}`;
    const chrome = await withAllCores(() =>
      chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] }),
    );
    try {
      for (const page of PAGES) {
        // Lighthouse sometimes loses the trace on a busy machine (NO_NAVSTART, NO_FCP: "Please run Lighthouse
        // again"): such a run is retried, at most twice, and said.
        let lhr;
        for (let attempt = 1; ; attempt++) {
          const result = await lighthouse(`${origin}${page}`, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] });
          if (!result) throw new Error(`lighthouse returned nothing for ${page}`);
          lhr = result.lhr;
          if (!lhr.runtimeError) break;
          const error = `lighthouse on ${page}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`;
          if (attempt === 3) throw new Error(error);
          lines.push(`${page.padEnd(10)} retried: ${error}`);
        }
        const scores = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)]));
        for (const c of CATEGORIES) checks.push(check(`${page} ${c} ≥ ${TARGET}`, scores[c]!, 'points', scores[c]! >= TARGET));

        const items = ((lhr.audits['network-requests']?.details as { items?: NetworkItem[] } | undefined)?.items ?? []).filter((i) => i.url.startsWith(origin));
        const byType: Record<string, { gzip: number; br: number; files: number }> = {};
        for (const item of items) {
          const type = item.resourceType ?? 'Other';
          const [gzip, br] = await Promise.all([bodyBytes(item.url, 'gzip, deflate'), bodyBytes(item.url, 'br, gzip')]);
          const t = (byType[type] ??= { gzip: 0, br: 0, files: 0 });
          t.gzip += gzip;
          t.br += br;
          t.files++;
        }
        const total = Object.values(byType).reduce((a, t) => ({ gzip: a.gzip + t.gzip, br: a.br + t.br }), { gzip: 0, br: 0 });
        const js = byType.Script ?? { gzip: 0, br: 0, files: 0 };
        checks.push(informative(`${page} bytes as sent with gzip (HTML+CSS+JS+images)`, kB(total.gzip), 'kB'));
        checks.push(informative(`${page} JavaScript as sent with gzip`, kB(js.gzip), 'kB'));
        const metrics = Object.fromEntries(
          ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index'].map((id) => [id, lhr.audits[id]?.displayValue ?? '-']),
        );
        const failing = Object.entries(lhr.categories).flatMap(([, cat]) =>
          (cat.auditRefs ?? []).filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1).map((ref) => `${ref.id} ${lhr.audits[ref.id]?.score}`),
        );
        lines.push(
          `${page.padEnd(10)} ${CATEGORIES.map((c) => `${c} ${scores[c]}`).join(', ')}`,
          `           ${Object.entries(byType)
            .map(([type, t]) => `${type} ${t.files} × ${kB(t.gzip).toFixed(1)} kB gzip`)
            .join(', ')}; total ${kB(total.gzip).toFixed(1)} kB gzip, ${kB(total.br).toFixed(1)} kB br`,
          `           ${Object.entries(metrics)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ')}`,
        );
        if (failing.length) lines.push(`           audits below 1: ${failing.join(', ')}`);
        details[page] = { scores, bytes: byType, total, metrics, failing, lighthouse: lhr.lighthouseVersion, chrome: lhr.environment?.hostUserAgent };
      }
    } finally {
      await chrome.kill();
    }
  });
  console.log(lines.join('\n'));
  const scored = checks.filter((c) => !c.informative);
  const lowest = Math.min(...scored.map((c) => c.value));
  return {
    scenario: 'public-site',
    target: `Lighthouse mobile ≥ ${TARGET} in all four categories on ${PAGES.join(', ')}`,
    ratio: lowest / TARGET,
    met: scored.every((c) => c.met),
    rows: [],
    checks,
    notes: ['scores 0–100 (Lighthouse mobile preset, simulated throttling); sizes in kB of 1,000 bytes, body bytes the api sends (headers not counted)'],
    details,
  };
}
