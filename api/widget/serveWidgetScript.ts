import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Context, Next } from 'koa';
import { UI_DIST } from '../http/serveUi';

export const WIDGET_SCRIPT_PATH = '/widget.js';

interface Built {
  mtimeMs: number;
  body: Buffer;
  /** Content hash: the ETag, and the fingerprint `?v=` must name for a long cache. */
  hash: string;
}

/**
 * GET /widget.js: the embeddable widget (ui/widget, built into ui/dist/widget.js). Any site loads it,
 * so CORS allows every origin and CORP says cross-origin. The snippet customers paste has no version, so
 * it revalidates (ETag); `/widget.js?v=<hash>` names one build and is cached for a year.
 */
export function serveWidgetScript(root = UI_DIST) {
  let cached: Built | undefined;
  const load = async (): Promise<Built | undefined> => {
    const file = path.join(root, 'widget.js');
    let mtimeMs: number;
    try {
      mtimeMs = (await stat(file)).mtimeMs;
    } catch {
      return undefined;
    }
    if (cached?.mtimeMs !== mtimeMs) {
      const body = await readFile(file);
      cached = { mtimeMs, body, hash: createHash('sha256').update(body).digest('hex').slice(0, 16) };
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
    ctx.set('ETag', `"${built.hash}"`);
    ctx.set('Cache-Control', ctx.query.v === built.hash ? 'public, max-age=31536000, immutable' : 'no-cache');
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.body = built.body;
  };
}

