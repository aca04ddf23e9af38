/**
 * Scenario 7, UI weight: builds the UI with vite into a temporary directory and sums the gzip size
 * (zlib level 6, what a web server sends) of the JavaScript a browser loads for a route: the entry and
 * its static imports, plus the lazy chunks the route renders at once, each with its static imports.
 * `/inbox/all` renders App → AdminApp (react-admin shell, inbox list); the widget is one IIFE file.
 * Targets: inbox route ≤ 250 kB, widget script ≤ 50 kB.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { check, type ScenarioContext, type ScenarioResult } from './lib/scenario';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

/** The lazy modules each measured route renders on first paint (after the entry). */
const ROUTES: Record<string, string[]> = {
  '/inbox/all': ['src/AdminApp.tsx'],
  '/inbox/all/{id} (conversation open)': ['src/AdminApp.tsx', 'src/inbox/conversation/ConversationView.tsx'],
  '/user/login': ['src/auth/AuthRoutes.tsx'],
};

function closure(manifest: Record<string, ManifestChunk>, keys: string[]): Set<string> {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not a chunk of the build (renamed? update bench/uiWeight.ts)`);
    if (chunk.file.endsWith('.js')) files.add(chunk.file);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  keys.forEach(visit);
  return files;
}

const kB = (bytes: number) => bytes / 1000;

export async function uiWeight(_ctx: ScenarioContext): Promise<ScenarioResult> {
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'balcao-ui-weight-'));
  try {
    await build({ configFile: 'ui/vite.config.ts', logLevel: 'warn', build: { outDir, emptyOutDir: true, manifest: true } });
    const manifest = JSON.parse(readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
    const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
    if (!entry) throw new Error('no entry chunk in the manifest');
    const gz = new Map<string, { raw: number; gzip: number }>();
    const sizeOf = (file: string) => {
      let s = gz.get(file);
      if (!s) {
        const buf = readFileSync(path.join(outDir, file));
        s = { raw: buf.length, gzip: gzipSync(buf, { level: 6 }).length };
        gz.set(file, s);
      }
      return s;
    };
    const lines: string[] = [];
    const measured: Record<string, { files: number; raw: number; gzip: number; largest: { file: string; gzip: number }[] }> = {};
    for (const [route, lazy] of Object.entries(ROUTES)) {
      const files = [...closure(manifest, [entry, ...lazy])];
      const sizes = files.map((f) => ({ file: f, ...sizeOf(f) }));
      const total = sizes.reduce((a, s) => ({ raw: a.raw + s.raw, gzip: a.gzip + s.gzip }), { raw: 0, gzip: 0 });
      const largest = sizes.sort((a, b) => b.gzip - a.gzip).slice(0, 5).map((s) => ({ file: s.file, gzip: s.gzip }));
      measured[route] = { files: files.length, ...total, largest };
      lines.push(`${route.padEnd(40)}${String(files.length).padStart(6)} files${kB(total.raw).toFixed(1).padStart(10)} kB raw${kB(total.gzip).toFixed(1).padStart(9)} kB gzip`);
      lines.push(`  largest: ${largest.map((l) => `${l.file.replace('assets/', '')} ${kB(l.gzip).toFixed(1)}`).join(', ')}`);
    }
    const widget = sizeOf('widget.js');
    lines.push(`${'widget.js'.padEnd(40)}${'1'.padStart(6)} files${kB(widget.raw).toFixed(1).padStart(10)} kB raw${kB(widget.gzip).toFixed(1).padStart(9)} kB gzip`);
    console.log(lines.join('\n'));
    const inbox = measured['/inbox/all'].gzip;
    const checks = [
      check('inbox route initial JS ≤ 250 kB gzip', kB(inbox), 'kB', kB(inbox) <= 250),
      check('widget script ≤ 50 kB gzip', kB(widget.gzip), 'kB', kB(widget.gzip) <= 50),
    ];
    return {
      scenario: 'ui-weight',
      target: 'inbox route ≤ 250 kB gzip',
      ratio: kB(inbox) / 250,
      met: checks.every((c) => c.met),
      rows: [],
      checks,
      notes: ['sizes in kB of 1,000 bytes, gzip level 6'],
      details: { routes: measured, widget },
    };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}
