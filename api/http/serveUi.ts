import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Context, Next } from 'koa';
import type { Config } from '../config';
import { escapeHtml, operatorTokens } from './operatorIdentity';
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
  '.avif': 'image/avif',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
};

async function fileAt(p: string): Promise<{ path: string; size: number; mtimeMs: number } | undefined> {
  try {
    const s = await stat(p);
    return s.isFile() ? { path: p, size: s.size, mtimeMs: s.mtimeMs } : undefined;
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

/** Where the build writes the public site (ui/site/vitePlugin.ts SITE_PAGES_DIR), relative to ui/dist. */
const SITE_PAGES = 'site/pages';
/** Images of the public pages (ui/public/site/img): not hashed, so cached for a day rather than for good. */
const SITE_IMAGES = '/site/img/';

/** The file of the public site that answers `urlPath`, by name: `/` → index.html, `/pricing` → pricing.html. */
function siteFileOf(urlPath: string): string | undefined {
  if (urlPath === '/') return 'index.html';
  // The landing answers at / only: /index is not a second address of it.
  if (urlPath === '/index') return undefined;
  if (urlPath === '/robots.txt' || urlPath === '/sitemap.xml') return urlPath.slice(1);
  return /^\/[a-z][a-z0-9-]*$/.test(urlPath) ? `${urlPath.slice(1)}.html` : undefined;
}


/** A phone as a `tel:` target: its digits, with the + of an international number. */
const telOf = (phone: string) => `${phone.trim().startsWith('+') ? '+' : ''}${phone.replace(/\D/g, '')}`;

/** The values of the `%BALCAO_…%` tokens the build leaves in the public pages (ui/src/public/site/placeholders.ts). */
function siteTokens(config: Config): Record<string, string> {
  const [phone1, phone2] = config.supportPhones;
  return {
    ORIGIN: escapeHtml(config.publicUrl),
    SUPPORT_EMAIL: escapeHtml(config.supportEmail),
    SUPPORT_PHONE_1: escapeHtml(phone1),
    SUPPORT_PHONE_2: escapeHtml(phone2),
    SUPPORT_TEL_1: escapeHtml(telOf(phone1)),
    SUPPORT_TEL_2: escapeHtml(telOf(phone2)),
    ...operatorTokens(config.operator),
  };
}


interface SiteFile {
  mtimeMs: number;
  size: number;
  type: string;
  etag: string;
  bodies: { identity: Buffer; br: Buffer; gzip: Buffer };
}

/**
 * The public site's files as sent: tokens filled from this api's configuration, compressed once, kept until
 * the file on disk changes (a new build). About fifteen small files, so they live in memory.
 */
function siteFiles(config: Config, root: string) {
  const tokens = siteTokens(config);
  const cache = new Map<string, SiteFile>();
  return async function siteFile(name: string): Promise<SiteFile | undefined> {
    const found = await fileAt(path.join(root, SITE_PAGES, name));
    if (!found) return undefined;
    const cached = cache.get(name);
    if (cached && cached.mtimeMs === found.mtimeMs && cached.size === found.size) return cached;
    const text = (await readFile(found.path, 'utf8')).replace(/%BALCAO_([A-Z0-9_]+)%/g, (token, key: string) => tokens[key] ?? token);
    const identity = Buffer.from(text);
    const file: SiteFile = {
      mtimeMs: found.mtimeMs,
      size: found.size,
      type: TYPES[path.extname(name)] ?? 'application/octet-stream',
      etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`,
      bodies: {
        identity,
        br: brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
        gzip: gzipSync(identity, { level: 9 }),
      },
    };
    cache.set(name, file);
    return file;
  };
}

/**
 * Serves the built UI (ui/dist); any other non-API GET gets index.html (SPA fallback). The public site's
 * addresses (`/`, `/pricing`, the channel pages, /terms…, /sitemap.xml, /robots.txt; docs/public-site.md) get
 * their prerendered file instead, compressed by Accept-Encoding, revalidated by ETag (`no-cache`, 304 when
 * unchanged); `/pricing/` redirects to `/pricing`, and the files are not reachable under their own path. Hashed assets
 * (`/assets/*`, names change with their content) are cached for a year and sent brotli- or
 * gzip-compressed when the build wrote those variants; everything else revalidates (`no-cache`), so a new
 * deploy's index.html is picked up at once.
 */
export function serveUi(config: Config, root = UI_DIST) {
  const siteFile = siteFiles(config, root);
  return async function ui(ctx: Context, next: Next): Promise<void> {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.path.startsWith('/api') || ctx.path === '/mqtt') return next();
    if (ctx.path.startsWith(`/${SITE_PAGES}/`)) return next();
    const trailing = /^(\/[a-z][a-z0-9-]*)\/$/.exec(ctx.path)?.[1];
    const siteName = siteFileOf(trailing ?? ctx.path);
    const page = siteName ? await siteFile(siteName) : undefined;
    if (page && trailing) {
      ctx.status = 301;
      ctx.redirect(`${trailing}${ctx.querystring ? `?${ctx.querystring}` : ''}`);
      return;
    }
    if (page) {
      ctx.type = page.type;
      ctx.set('Cache-Control', 'no-cache');
      ctx.vary('Accept-Encoding');
      ctx.status = 200;
      ctx.etag = page.etag;
      if (ctx.fresh) {
        ctx.status = 304;
        return;
      }
      // Our order of preference, as for the precompressed assets: brotli, gzip, then the file as it is.
      const encoding = ENCODINGS.find((enc) => ctx.acceptsEncodings(enc.name) === enc.name)?.name;
      const body = encoding ? page.bodies[encoding] : page.bodies.identity;
      if (encoding) ctx.set('Content-Encoding', encoding);
      ctx.length = body.length;
      ctx.body = body;
      return;
    }
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
    const siteImage = isAsset && rel.startsWith(SITE_IMAGES);
    ctx.set('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : siteImage ? 'public, max-age=86400' : 'no-cache');
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
