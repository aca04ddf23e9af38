import { build, defineConfig, loadEnv, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

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

export default defineConfig(({ mode }) => {
  const apiTarget = loadEnv(mode, uiRoot, 'API_').API_URL ?? 'http://localhost:3000';
  return {
    root: uiRoot,
    plugins: [react(), widgetBundle],
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
