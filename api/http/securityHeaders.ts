import type { Context, Next } from 'koa';
import type { Config } from '../config';

/** Everything but connect-src, which names our own WebSocket origin per request. */
const CSP_BASE = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob: data:",
  "font-src 'self' data:",
  "frame-src 'self' https:",
  "frame-ancestors 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

/** The same on every response. */
const FIXED_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'SAMEORIGIN'],
  ['Referrer-Policy', 'strict-origin-when-cross-origin'],
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Permissions-Policy', 'camera=(), geolocation=(), microphone=(self)'],
];

/** One year; no includeSubDomains, since the api may share a parent domain with sites we do not run. */
const HSTS = 'max-age=31536000';

/** A Host header we are willing to write into a header: a DNS name or bracketed IPv6, with an optional port. */
const SAFE_HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/;

/**
 * CSP, frame-ancestors, nosniff and friends on every response (the widget script sets its own frame
 * policy); HSTS when served over HTTPS; `no-store` on every /api answer unless the route sets its own
 * caching (file downloads, avatars), since sessions, renewal tokens and secrets travel in API bodies
 * (docs/security.md, "Input, headers and exposure").
 */
export function securityHeaders(config: Pick<Config, 'publicUrl'>) {
  const publicUrl = new URL(config.publicUrl);
  const publicHttps = publicUrl.protocol === 'https:';
  const publicWs = `${publicHttps ? 'wss' : 'ws'}://${publicUrl.host}`;

  /** The UI opens realtime at `ws(s)://<the host it was loaded from>/mqtt` (ui/src/realtime/events.ts). */
  function connectSrc(host: string, https: boolean): string {
    const sources = new Set(["'self'", publicWs]);
    if (host && SAFE_HOST.test(host)) {
      sources.add(`wss://${host}`);
      if (!https) sources.add(`ws://${host}`);
    }
    return `connect-src ${[...sources].join(' ')}`;
  }

  /**
   * The policy depends only on the Host and the scheme: built once per pair, not per request (the HTTP
   * floor, docs/performance.md). Few pairs exist; a client sending many Hosts only starts the memory afresh.
   */
  const policies = new Map<string, string>();
  function policy(host: string, https: boolean): string {
    const key = `${https ? 's' : 'p'}${host}`;
    let value = policies.get(key);
    if (value === undefined) {
      value = `${CSP_BASE}; ${connectSrc(host, https)}`;
      if (policies.size >= 64) policies.clear();
      policies.set(key, value);
    }
    return value;
  }

  return async function headers(ctx: Context, next: Next): Promise<void> {
    // ctx.protocol reads X-Forwarded-Proto only when the app trusts a proxy (TRUST_PROXY > 0).
    const https = publicHttps || ctx.protocol === 'https';
    // Straight to the response: nothing has been sent yet, and Koa's ctx.set allocates arrays per call.
    const res = ctx.res;
    res.setHeader('Content-Security-Policy', policy(ctx.host, https));
    if (https) res.setHeader('Strict-Transport-Security', HSTS);
    for (const [name, value] of FIXED_HEADERS) res.setHeader(name, value);
    const path = ctx.path;
    if (path.startsWith('/api/') || path === '/api') res.setHeader('Cache-Control', 'no-store');
    await next();
  };
}
