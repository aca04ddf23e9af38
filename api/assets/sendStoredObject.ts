import type { Context } from 'koa';
import type { StoredObject } from '../storage/storage';

/**
 * Answers with a stored object's bytes. A stored file is never a page: no sniffing, no scripts, no
 * plugins (sandboxed CSP; `inlineStyles` lets a text file keep its own styling), and other sites (the
 * widget) may embed it.
 */
export function sendStoredObject(
  ctx: Context,
  object: StoredObject,
  headers: { contentType: string; cacheControl: string; disposition?: string; inlineStyles?: boolean },
): void {
  ctx.set('Content-Type', headers.contentType);
  ctx.set('Content-Length', String(object.size));
  if (headers.disposition) ctx.set('Content-Disposition', headers.disposition);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Content-Security-Policy', headers.inlineStyles ? "default-src 'none'; style-src 'unsafe-inline'; sandbox" : "default-src 'none'; sandbox");
  ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
  ctx.set('Cache-Control', headers.cacheControl);
  ctx.body = object.stream;
}
