import { defineConfig, loadEnv } from 'vite';
import react from '@vitejs/plugin-react';

// Paths from URLs, so this file type-checks with the UI's browser tsconfig (no Node types).
const dir = (relative: string) => decodeURIComponent(new URL(relative, import.meta.url).pathname).replace(/\/$/, '');
const uiRoot = dir('./');
const repoRoot = dir('../');

export default defineConfig(({ mode }) => {
  const apiTarget = loadEnv(mode, uiRoot, 'API_').API_URL ?? 'http://localhost:3000';
  return {
    root: uiRoot,
    plugins: [react()],
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
