import type { Context, Next } from 'koa';
import type { AppDeps } from '../deps';
import { loadViewer, type ConversationViewer } from '../policy/conversations';
import { actorOf, authenticate } from './authenticate';

/**
 * The middlewares of a route that shows conversations or what hangs on them (the inbox, a conversation's
 * contact): authenticate, then load the caller's ConversationViewer (policy/conversations.ts) once for the
 * request. The handler reads it with `viewerOf`.
 */
export function authenticateViewer(deps: AppDeps) {
  const withViewer = async (ctx: Context, next: Next) => {
    ctx.state.viewer = await loadViewer(deps.knex, actorOf(ctx));
    await next();
  };
  return [authenticate(deps), withViewer] as const;
}

export function viewerOf(ctx: Context): ConversationViewer {
  return ctx.state.viewer as ConversationViewer;
}
