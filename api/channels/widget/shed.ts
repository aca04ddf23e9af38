import type { Context, Next } from 'koa';
import type { Knex } from 'knex';
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

/**
 * Visitors' messages this process is storing and publishing at once (counted from after their body was
 * read) above which the next is refused the same way. Since a
 * message holds a pool connection for one statement at a time, and its token lookup and published mark
 * wait together for a shared statement (api/db/coalesce.ts), an api over capacity queues its messages in
 * its own core rather than in the pool's queue: the pool bound no longer sees it. Messages in flight do:
 * their latency is about their number over the messages served per second (Little's law). 50 keeps the
 * answer of a taken message near a tenth of a second at what one api core and a commit-bound disk take
 * (700–800 a second here), and costs no throughput: at 1,000 msg/s offered, on the 1M-conversation bench
 * database, 50 gave p99 118–133 ms at 711–762 acknowledged/s where 100 gave 158–271 ms at 697–778/s
 * (bench/README.md "Ingest", 2026-11-29). At 100 msg/s fewer than 5 are in flight.
 */
export const WIDGET_SHED_IN_FLIGHT = 50;

const MESSAGES_PATH = `${WIDGET_API_PREFIX}messages`;

/**
 * Mounted right after widgetCors (the refusal carries CORS headers) and before the body parser and the
 * routers: under overload most messages are refused, so a refusal must cost next to nothing, or refusing
 * takes the core the accepted messages need.
 */
export function shedWidgetMessages(deps: Pick<AppDeps, 'knex'>) {
  return async function shed(ctx: Context, next: Next): Promise<void> {
    if (ctx.method === 'POST' && ctx.path === MESSAGES_PATH && (widgetMessagesInFlight(deps.knex) >= WIDGET_SHED_IN_FLIGHT || poolWaiters(deps.knex) >= WIDGET_SHED_POOL_WAITERS)) {
      throw errors.unavailable('Muitas mensagens chegando agora. Tente novamente em instantes.', 1);
    }
    await next();
  };
}

/** Per database (one per api process): the messages being stored and published now. */
const inFlight = new WeakMap<Knex, number>();

export function widgetMessagesInFlight(knex: Knex): number {
  return inFlight.get(knex) ?? 0;
}

/**
 * Counts a visitor's message as in flight while `work` stores and publishes it (sendVisitorMessage). Counted
 * from after its body was read, so a client that sends its body slowly holds no place.
 */
export async function inFlightWidgetMessage<T>(knex: Knex, work: () => Promise<T>): Promise<T> {
  inFlight.set(knex, widgetMessagesInFlight(knex) + 1);
  try {
    return await work();
  } finally {
    inFlight.set(knex, widgetMessagesInFlight(knex) - 1);
  }
}
