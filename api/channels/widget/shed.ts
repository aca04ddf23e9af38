import type { Context, Next } from 'koa';
import type { AppDeps } from '../../deps';
import { poolWaiters } from '../../db/poolState';
import { errors } from '../../http/errors';
import { WIDGET_API_PREFIX } from './cors';

/**
 * Queries of this process waiting for a pool connection above which a visitor's message is refused at once
 * (503, Retry-After) instead of joining the queue: past it the api is over capacity (bench/README.md,
 * ingest), every queued message would wait seconds and then fail on the pool's 10 s acquire timeout, and
 * the queue would keep growing while messages keep coming.
 */
export const WIDGET_SHED_POOL_WAITERS = 200;

const MESSAGES_PATH = `${WIDGET_API_PREFIX}messages`;

/**
 * Mounted right after widgetCors (the refusal carries CORS headers) and before the body parser and the
 * routers: under overload most messages are refused, so a refusal must cost next to nothing, or refusing
 * takes the core the accepted messages need.
 */
export function shedWidgetMessages(deps: Pick<AppDeps, 'knex'>) {
  return async function shed(ctx: Context, next: Next): Promise<void> {
    if (ctx.method === 'POST' && ctx.path === MESSAGES_PATH && poolWaiters(deps.knex) >= WIDGET_SHED_POOL_WAITERS) {
      throw errors.unavailable('Muitas mensagens chegando agora. Tente novamente em instantes.', 1);
    }
    await next();
  };
}
