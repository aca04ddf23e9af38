import { defineConfig } from 'vite';

// Paths from URLs, so this file type-checks with the UI's browser tsconfig (no Node types).
const dir = (relative: string) => decodeURIComponent(new URL(relative, import.meta.url).pathname).replace(/\/$/, '');
const widgetRoot = dir('./');
const uiRoot = dir('../');

/**
 * The embeddable widget (docs/widget.md): one IIFE file, ui/dist/widget.js, no React. Built after the app
 * (whose build empties ui/dist), so it never removes the app's files.
 */
export default defineConfig({
  root: widgetRoot,
  publicDir: false,
  build: {
    outDir: `${uiRoot}/dist`,
    emptyOutDir: false,
    copyPublicDir: false,
    target: 'es2020',
    sourcemap: false,
    lib: {
      entry: `${widgetRoot}/main.ts`,
      name: 'BalcaoWidgetBundle',
      formats: ['iife'],
      fileName: () => 'widget.js',
    },
  },
});
