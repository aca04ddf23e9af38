import type { Context, Next } from 'koa';
import { CHALLENGE_HEADER } from './limits';

export const WIDGET_API_PREFIX = '/api/v1/widget/';

/**
 * The widget API is called from customers' sites, any origin. No credentials: the visitor token travels
 * in the Authorization header, never in a cookie, so allowing `*` exposes nothing a site could not
 * already send. Only /api/v1/widget/* gets this; every other route stays same-origin.
 *
 * Mounted before the body parser and the error middleware's answer, so malformed bodies and errors
 * carry the headers too (a browser hides an answer without them from the widget).
 */
export async function widgetCors(ctx: Context, next: Next): Promise<void> {
  if (!ctx.path.startsWith(WIDGET_API_PREFIX)) return next();
  ctx.set('Access-Control-Allow-Origin', '*');
  ctx.set('Access-Control-Expose-Headers', `Retry-After, ${CHALLENGE_HEADER}`);
  if (ctx.method === 'OPTIONS') {
    ctx.set('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
    ctx.set('Access-Control-Allow-Headers', 'Authorization, Content-Type');
    ctx.set('Access-Control-Max-Age', '600');
    ctx.status = 204;
    return;
  }
  await next();
}
