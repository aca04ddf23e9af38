import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context, Next } from 'koa';
import type { Config } from '../config';

export const UI_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../ui/dist');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
};

async function fileAt(p: string): Promise<{ path: string; size: number } | undefined> {
  try {
    const s = await stat(p);
    return s.isFile() ? { path: p, size: s.size } : undefined;
  } catch {
    return undefined;
  }
}

/** Serves the built UI (ui/dist); any other non-API GET gets index.html (SPA fallback). */
export function serveUi(_config: Config, root = UI_DIST) {
  return async function ui(ctx: Context, next: Next): Promise<void> {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.path.startsWith('/api') || ctx.path === '/mqtt') return next();
    const rel = path.normalize(decodeURIComponent(ctx.path)).replace(/^(\.\.[/\\])+/, '');
    const candidate = path.join(root, rel);
    let file = candidate.startsWith(root) ? await fileAt(candidate) : undefined;
    const isAsset = file !== undefined;
    if (!file) {
      if (path.extname(rel) && !rel.endsWith('.html')) return next();
      file = await fileAt(path.join(root, 'index.html'));
      if (!file) {
        ctx.status = 503;
        ctx.type = 'text/plain; charset=utf-8';
        ctx.body = 'A interface ainda não foi construída. Rode "npm run build:ui".';
        return;
      }
    }
    ctx.type = TYPES[path.extname(file.path)] ?? 'application/octet-stream';
    ctx.length = file.size;
    ctx.set('Cache-Control', isAsset && rel.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    ctx.body = createReadStream(file.path);
  };
}
