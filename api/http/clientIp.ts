import type { Context } from 'koa';

/**
 * The client's address. X-Forwarded-For is read only when TRUST_PROXY says how many proxies of ours
 * sit in front; then the address added by the outermost trusted proxy is the client.
 */
export function clientIp(ctx: Context, trustProxy: number): string {
  const socketIp = ctx.req.socket.remoteAddress ?? 'unknown';
  if (trustProxy <= 0) return socketIp;
  const chain = ctx.get('X-Forwarded-For').split(',').map((s) => s.trim()).filter(Boolean);
  if (chain.length === 0) return socketIp;
  const idx = Math.max(0, chain.length - trustProxy);
  return chain[idx] ?? socketIp;
}
