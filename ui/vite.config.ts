import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { build, defineConfig, loadEnv, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { publicSite } from './site/vitePlugin.ts';

// Paths from URLs, so this file type-checks with the UI's browser tsconfig (no Node types).
const dir = (relative: string) => decodeURIComponent(new URL(relative, import.meta.url).pathname).replace(/\/$/, '');
const uiRoot = dir('./');
const repoRoot = dir('../');

// The embeddable chat widget (ui/widget → dist/widget.js) is its own IIFE build; it runs after the app's,
// which empties dist, so one `npm run build:ui` leaves everything the api serves. It follows the app's
// outDir when a caller moves it (bench/uiWeight.ts builds into a temporary directory).
let appOutDir = `${uiRoot}/dist`;
const widgetBundle: Plugin = {
  name: 'balcao-widget-bundle',
  apply: 'build',
  configResolved: (config) => {
    appOutDir = config.build.outDir;
  },
  closeBundle: () => build({ configFile: `${uiRoot}/widget/vite.config.ts`, logLevel: 'warn', build: { outDir: appOutDir } }).then(() => undefined),
};

// The service worker (ui/pwa/sw.js → dist/sw.js, docs/pwa.md): the template gets the build's shell files
// (every emitted JS/CSS chunk, index.html, the manifest and icons of ui/public) and a version that changes
// with any of them, so a new deploy installs a new cache and drops the old one.
const PUBLIC_SHELL = ['/index.html', '/manifest.webmanifest', '/favicon.svg', '/icons/icon-192.png', '/icons/icon-512.png', '/icons/icon-maskable-512.png', '/icons/apple-touch-icon.png'];
const serviceWorker: Plugin = {
  name: 'balcao-service-worker',
  apply: 'build',
  generateBundle(_options, bundle) {
    const chunks = Object.keys(bundle)
      .filter((name) => /\.(js|css)$/.test(name) && !name.endsWith('.map'))
      .sort()
      .map((name) => `/${name}`);
    const shell = [...PUBLIC_SHELL, ...chunks];
    const hash = createHash('sha256').update(JSON.stringify(shell));
    for (const file of PUBLIC_SHELL.slice(1)) hash.update(readFileSync(`${uiRoot}/public${file}`));
    const template = readFileSync(`${uiRoot}/pwa/sw.js`, 'utf8');
    hash.update(template);
    const source = template.replace("'__BALCAO_SW_VERSION__'", JSON.stringify(hash.digest('hex').slice(0, 16))).replace('__BALCAO_SW_PRECACHE__', JSON.stringify(shell));
    this.emitFile({ type: 'asset', fileName: 'sw.js', source });
  },
};

export default defineConfig(({ mode }) => {
  const apiTarget = loadEnv(mode, uiRoot, 'API_').API_URL ?? 'http://localhost:3000';
  return {
    root: uiRoot,
    plugins: [react(), widgetBundle, serviceWorker, publicSite({ uiRoot, repoRoot })],
    build: {
      outDir: `${uiRoot}/dist`,
      emptyOutDir: true,
    },
    server: {
      proxy: {
        '/api': { target: apiTarget, changeOrigin: true },
        '/mqtt': { target: apiTarget.replace(/^http/, 'ws'), ws: true, changeOrigin: true },
      },
      // The forms import the api's shared zod schemas (../api/**/schema.ts).
      fs: { allow: [repoRoot] },
    },
  };
});
