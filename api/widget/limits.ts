import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { clientIp } from '../http/clientIp';

const MINUTE = 60_000;

/**
 * Rate limits of the public widget API (DESIGN.md §3 "widget conversation creation"). First contacts
 * create a visitor, a contact and a conversation, so they are held tight per address and per channel;
 * later calls are counted per visitor.
 */
export const WIDGET_LIMITS = {
  firstContact: { ip: { limit: 20, windowMs: 60 * MINUTE }, channel: { limit: 300, windowMs: 60 * MINUTE } },
  message: { visitor: { limit: 30, windowMs: MINUTE } },
  file: { visitor: { limit: 10, windowMs: 10 * MINUTE } },
  // Every page view of a site with the widget asks for the config, so it gets more room than message reads.
  config: { ip: { limit: 600, windowMs: MINUTE } },
  read: { ip: { limit: 120, windowMs: MINUTE } },
} as const;

export function limitFirstContact(deps: AppDeps, ip: string, channelId: number): void {
  const { ip: perIp, channel } = WIDGET_LIMITS.firstContact;
  deps.rateLimiter.hit(`widget:first:ip:${ip}`, perIp.limit, perIp.windowMs);
  deps.rateLimiter.hit(`widget:first:channel:${channelId}`, channel.limit, channel.windowMs);
}

export function limitVisitor(deps: AppDeps, kind: 'message' | 'file', visitorId: string): void {
  const { limit, windowMs } = WIDGET_LIMITS[kind].visitor;
  deps.rateLimiter.hit(`widget:${kind}:visitor:${visitorId}`, limit, windowMs);
}

/** Config and message reads: cheap, but public, so bounded per address. */
export function limitRead(deps: AppDeps, ctx: Context, kind: 'config' | 'read'): void {
  const { limit, windowMs } = WIDGET_LIMITS[kind].ip;
  deps.rateLimiter.hit(`widget:${kind}:ip:${clientIp(ctx, deps.config.trustProxy)}`, limit, windowMs);
}
