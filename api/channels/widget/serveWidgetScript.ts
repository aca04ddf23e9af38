import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Context, Next } from 'koa';
import { UI_DIST } from '../../http/serveUi';

export const WIDGET_SCRIPT_PATH = '/widget.js';

interface Built {
  mtimeMs: number;
  body: Buffer;
  /** Content hash: the ETag, and the fingerprint `?v=` must name for a long cache. */
  hash: string;
  /** The same bytes compressed once per build, in the order we prefer them (a variant not smaller is left out). */
  encoded: { encoding: 'br' | 'gzip'; body: Buffer }[];
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Compressed as scripts/lib/uiBuild.ts precompresses the UI's hashed assets (brotli 11, gzip 9). */
async function encode(body: Buffer): Promise<Built['encoded']> {
  const [br, gz] = await Promise.all([
    brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    gzipAsync(body, { level: 9 }),
  ]);
  return [
    { encoding: 'br' as const, body: br },
    { encoding: 'gzip' as const, body: gz },
  ].filter((v) => v.body.length < body.length);
}

/**
 * GET /widget.js: the embeddable widget (ui/widget, built into ui/dist/widget.js). Any site loads it,
 * so CORS allows every origin and CORP says cross-origin. The snippet customers paste has no version, so
 * it revalidates (ETag); `/widget.js?v=<hash>` names one build and is cached for a year. Sent brotli- or
 * gzip-compressed by Accept-Encoding (issue 11 §5), like the UI's hashed assets: compressed once when a
 * build is first served and kept with it. Each encoding has its own ETag (the bytes differ; a cache
 * revalidates the variant it holds), derived from the content hash.
 */
export function serveWidgetScript(root = UI_DIST) {
  let cached: Built | undefined;
  let loading: Promise<Built> | undefined;
  const load = async (): Promise<Built | undefined> => {
    const file = path.join(root, 'widget.js');
    let mtimeMs: number;
    try {
      mtimeMs = (await stat(file)).mtimeMs;
    } catch {
      return undefined;
    }
    if (cached?.mtimeMs !== mtimeMs) {
      // Concurrent first requests share one read and one compression.
      loading ??= (async () => {
        const body = await readFile(file);
        return { mtimeMs, body, hash: createHash('sha256').update(body).digest('hex').slice(0, 16), encoded: await encode(body) };
      })().finally(() => {
        loading = undefined;
      });
      cached = await loading;
    }
    return cached;
  };

  return async function widgetScript(ctx: Context, next: Next): Promise<void> {
    if (ctx.path !== WIDGET_SCRIPT_PATH || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    const built = await load();
    if (!built) {
      ctx.status = 404;
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = 'O widget ainda não foi construído. Rode "npm run build:ui".';
      return;
    }
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
    // An absent Accept-Encoding accepts only identity; `br;q=0` refuses brotli.
    const variant = built.encoded.find((v) => ctx.acceptsEncodings(v.encoding) === v.encoding);
    ctx.vary('Accept-Encoding');
    ctx.set('ETag', variant ? `"${built.hash}-${variant.encoding}"` : `"${built.hash}"`);
    ctx.set('Cache-Control', ctx.query.v === built.hash ? 'public, max-age=31536000, immutable' : 'no-cache');
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    if (variant) ctx.set('Content-Encoding', variant.encoding);
    ctx.body = variant ? variant.body : built.body;
  };
}

