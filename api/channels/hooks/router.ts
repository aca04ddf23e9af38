import Router from '@koa/router';
import type { Context } from 'koa';
import type { AppDeps } from '../../deps';
import { hookInboundFor, hookInbounds, type HookInbound } from '../inbound';
import { acceptHook, answerHandshake, hookRequestOf } from './pipeline';
import { metaOAuthReturn } from './metaOAuth';

/**
 * Every provider's webhook (docs/architecture.md, "How a request flows"), one router for all channels:
 * `/api/hooks/<type>/:identifier` for the channels with a hook per channel (Telegram, custom, WhatsApp Cloud)
 * and the app-level hooks Meta calls (`/api/hooks/meta` for Messenger and Instagram, `/api/hooks/whatsapp`
 * for every Cloud line of an app). Each goes through the same pipeline (pipeline.ts): verify through the
 * channel's inbound half, store, answer, process. `GET` is the provider's verification handshake where it
 * has one. The JSON body parser skips /api/hooks/: signatures are checked over the raw bytes.
 */
export function hooksRouter(deps: AppDeps) {
  const router = new Router();

  const inboundOf = (type: string): HookInbound => {
    const inbound = hookInboundFor(type);
    if (!inbound) throw new Error(`no inbound half registered for ${type}`);
    return inbound;
  };
  const handshake = async (ctx: Context, inbound: HookInbound, identifier?: string) => {
    const challenge = await answerHandshake(deps, inbound, hookRequestOf(ctx, identifier));
    ctx.type = 'text/plain';
    ctx.body = challenge;
  };
  const accept = async (ctx: Context, inbound: HookInbound, identifier?: string) => {
    ctx.body = await acceptHook(deps, inbound, hookRequestOf(ctx, identifier));
  };

  // Messenger and Instagram share Meta's app-level hook (one inbound half for both, meta/inbound.ts).
  router.get('/hooks/meta', (ctx) => handshake(ctx, inboundOf('facebook')));
  router.post('/hooks/meta', (ctx) => accept(ctx, inboundOf('facebook')));
  router.get('/hooks/meta/oauth', (ctx) => metaOAuthReturn(deps, ctx));

  router.get('/hooks/whatsapp', (ctx) => handshake(ctx, inboundOf('whatsapp')));
  router.post('/hooks/whatsapp', (ctx) => accept(ctx, inboundOf('whatsapp')));

  // `/api/hooks/<type>/:identifier` for each channel with a hook per channel, from the registered halves
  // (one route per type, so each stays a route of its own for the security catalog).
  for (const inbound of hookInbounds()) {
    if (!inbound.perChannel) continue;
    if (inbound.handshake) router.get(`/hooks/${inbound.type}/:identifier`, (ctx) => handshake(ctx, inbound, ctx.params.identifier));
    router.post(`/hooks/${inbound.type}/:identifier`, (ctx) => accept(ctx, inbound, ctx.params.identifier));
  }
  return router;
}

