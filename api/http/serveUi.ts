import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context, Next } from 'koa';
import type { Config } from '../config';
import { errors } from './errors';

export const UI_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../ui/dist');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
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

/** Precompressed siblings written at build time (scripts/lib/uiBuild.ts), in the order we prefer them. */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

/**
 * The precompressed file to send instead of `file`, when the client accepts its encoding (an absent
 * Accept-Encoding accepts only identity) and the build wrote it.
 */
async function precompressed(ctx: Context, file: { path: string; size: number }) {
  for (const enc of ENCODINGS) {
    if (ctx.acceptsEncodings(enc.name) !== enc.name) continue;
    const variant = await fileAt(file.path + enc.suffix);
    if (variant) return { ...variant, encoding: enc.name };
  }
  return undefined;
}

function decodedPath(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw errors.badRequest('Endereço malformado: codificação por cento inválida.');
  }
}

/**
 * Serves the built UI (ui/dist); any other non-API GET gets index.html (SPA fallback). Hashed assets
 * (`/assets/*`, names change with their content) are cached for a year and sent brotli- or
 * gzip-compressed when the build wrote those variants; everything else revalidates (`no-cache`), so a new
 * deploy's index.html is picked up at once.
 */
export function serveUi(_config: Config, root = UI_DIST) {
  return async function ui(ctx: Context, next: Next): Promise<void> {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.path.startsWith('/api') || ctx.path === '/mqtt') return next();
    const rel = path.normalize(decodedPath(ctx.path)).replace(/^(\.\.[/\\])+/, '');
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
    const hashed = isAsset && rel.startsWith('/assets/');
    ctx.set('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    if (hashed) {
      ctx.vary('Accept-Encoding');
      const variant = await precompressed(ctx, file);
      if (variant) {
        ctx.set('Content-Encoding', variant.encoding);
        file = variant;
      }
    }
    ctx.length = file.size;
    ctx.body = createReadStream(file.path);
  };
}
