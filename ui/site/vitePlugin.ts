import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { build, type Alias, type InlineConfig, type Plugin, type Rollup } from 'vite';
import { PUBLIC_PAGE_PATHS } from '../src/public/routes.ts';
import { OPERATOR_PLACEHOLDERS, operatorTokens } from '../../api/http/operatorIdentity.ts';

/**
 * The public site (docs/public-site.md), prerendered in the app's build: after vite has written the SPA, this
 * plugin
 * 1. builds ui/site/islands.tsx for the browser with react/react-dom aliased to preact/compat (a React
 *    runtime alone is twice the 30 kB a public page may load), into dist/assets/ with a hashed name;
 * 2. builds ui/site/render.tsx for Node, imports it and renders every page with react-dom/server;
 * 3. writes dist/assets/site-HASH.js (the head script) and dist/site/pages/*.html, sitemap.xml, robots.txt,
 *    which api/http/serveUi.ts serves at /, /pricing, … with its `%BALCAO_…%` tokens filled in.
 * It follows the app's outDir, like the widget's build (bench/uiWeight.ts builds into a temporary folder).
 * The dev server renders the same pages per request, on React, with the tokens filled from its own address.
 */

type RenderModule = typeof import('./render');

const PREACT: Alias[] = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
  { find: /^react$/, replacement: 'preact/compat' },
];

/** Where the built files go, relative to the app's outDir. */
export const SITE_PAGES_DIR = 'site/pages';
const DEV_SCRIPT = '/@balcao-site/site.js';
const SITE_PATHS = new Set<string>([...PUBLIC_PAGE_PATHS, '/sitemap.xml', '/robots.txt']);

function base(uiRoot: string): InlineConfig {
  return {
    configFile: false,
    root: uiRoot,
    logLevel: 'warn',
    publicDir: false,
    mode: 'production',
    oxc: { jsx: { runtime: 'automatic' } },
  };
}

/** The islands' module, as its address on the site. */
async function buildIslands(uiRoot: string, outDir: string): Promise<string> {
  const result = (await build({
    ...base(uiRoot),
    resolve: { alias: PREACT },
    build: {
      outDir,
      emptyOutDir: false,
      copyPublicDir: false,
      target: 'es2020',
      modulePreload: false,
      rollupOptions: {
        input: { 'site-islands': `${uiRoot}/site/islands.tsx` },
        output: { entryFileNames: 'assets/[name]-[hash].js', chunkFileNames: 'assets/site-[name]-[hash].js' },
      },
    },
  })) as Rollup.RollupOutput | Rollup.RollupOutput[];
  const outputs = Array.isArray(result) ? result : [result];
  const entry = outputs.flatMap((o) => o.output).find((c) => c.type === 'chunk' && c.isEntry);
  if (!entry) throw new Error('public site: the islands build wrote no entry');
  return `/${entry.fileName}`;
}

/** ui/site/render.tsx built for Node into a folder of its own (under node_modules, so react resolves), then loaded. */
async function loadRenderer(uiRoot: string, repoRoot: string): Promise<RenderModule> {
  const dir = `${repoRoot}/node_modules/.cache/balcao-site-${process.pid}-${Date.now()}`;
  try {
    await build({
      ...base(uiRoot),
      build: {
        ssr: `${uiRoot}/site/render.tsx`,
        outDir: dir,
        emptyOutDir: true,
        copyPublicDir: false,
        minify: false,
        cssMinify: true,
        rollupOptions: { output: { entryFileNames: 'render.mjs' } },
      },
    });
    return (await import(/* @vite-ignore */ pathToFileURL(`${dir}/render.mjs`).href)) as RenderModule;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Values for the tokens when the vite dev server serves the pages (the api fills them from its config). */
function devTokens(origin: string): Record<string, string> {
  return {
    ORIGIN: origin,
    SUPPORT_EMAIL: 'comercial@localhost',
    SUPPORT_PHONE_1: '+55 (11) 4000-0000',
    SUPPORT_PHONE_2: '+55 (11) 91234-5678',
    SUPPORT_TEL_1: '+551140000000',
    SUPPORT_TEL_2: '+5511912345678',
    ...operatorTokens(OPERATOR_PLACEHOLDERS),
  };
}

export function publicSite({ uiRoot, repoRoot }: { uiRoot: string; repoRoot: string }): Plugin {
  let outDir = `${uiRoot}/dist`;
  let building = false;
  return {
    name: 'balcao-public-site',
    configResolved(config) {
      outDir = config.build.outDir;
      building = config.command === 'build';
    },
    async closeBundle() {
      if (!building) return;
      const islands = await buildIslands(uiRoot, outDir);
      const renderer = await loadRenderer(uiRoot, repoRoot);
      const scriptName = `assets/site-${createHash('sha256').update(renderer.SITE_SCRIPT).digest('hex').slice(0, 10)}.js`;
      writeFileSync(`${outDir}/${scriptName}`, renderer.SITE_SCRIPT);
      const pagesDir = `${outDir}/${SITE_PAGES_DIR}`;
      rmSync(pagesDir, { recursive: true, force: true });
      mkdirSync(pagesDir, { recursive: true });
      for (const f of renderer.renderSite({ script: `/${scriptName}`, islands })) writeFileSync(`${pagesDir}/${f.file}`, f.body);
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const path = (req.url ?? '/').split(/[?#]/)[0]!;
        if ((req.method !== 'GET' && req.method !== 'HEAD') || (path !== DEV_SCRIPT && !SITE_PATHS.has(path))) return next();
        void (async () => {
          const renderer = (await server.ssrLoadModule(`${uiRoot}/site/render.tsx`)) as RenderModule;
          if (path === DEV_SCRIPT) {
            res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
            res.end(renderer.SITE_SCRIPT);
            return;
          }
          const file = renderer.renderPage(path, { script: DEV_SCRIPT, islands: '/site/islands.tsx' });
          if (!file) return next();
          const origin = `http://${req.headers.host ?? 'localhost'}`;
          const tokens = devTokens(origin);
          let body = file.body.replace(/%BALCAO_([A-Z0-9_]+)%/g, (token, name: string) => tokens[name] ?? token);
          if (file.file.endsWith('.html')) body = await server.transformIndexHtml(path, body);
          const type = file.file.endsWith('.html') ? 'text/html' : file.file.endsWith('.xml') ? 'application/xml' : 'text/plain';
          res.setHeader('Content-Type', `${type}; charset=utf-8`);
          res.end(body);
        })().catch(next);
      });
    },
  };
}
