import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import { requestLogLevel, type Logger } from '../logger';

const SAFE_ID = /^[A-Za-z0-9._-]{8,64}$/;

/** Structured request log with a correlation id (X-Request-Id in and out). */
export function requestLog(logger: Logger) {
  const level = requestLogLevel();
  return async function logRequest(ctx: Context, next: Next): Promise<void> {
    const incoming = ctx.get('X-Request-Id');
    const requestId = SAFE_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.res.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (ctx.path !== '/api/health') {
        logger[level](
          { requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 10) / 10 },
          'request',
        );
      }
    }
  };
}
