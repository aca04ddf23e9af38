import Router from '@koa/router';
import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { MqttAclHookSchema, MqttAuthHookSchema } from './schema';
import { answerAclHook, answerAuthHook } from './emqxHooks';

/**
 * HTTP authentication and authorization hooks for an external broker (EMQX 5 request/answer format).
 *
 * They answer 200 with `result: "deny"` for anything malformed instead of a 400: EMQX reads a 4xx as
 * "ignore" and moves on to the next authorizer, whose default may be to allow.
 */
export function mqttRouter(deps: AppDeps) {
  const router = new Router({ prefix: '/mqtt' });
  const body = (ctx: Context) => (ctx.request as { body?: unknown }).body;

  router.post('/auth', async (ctx) => {
    const parsed = MqttAuthHookSchema.safeParse(body(ctx));
    ctx.body = parsed.success ? await answerAuthHook(deps, parsed.data) : { result: 'deny' };
  });

  router.post('/acl', async (ctx) => {
    const parsed = MqttAclHookSchema.safeParse(body(ctx));
    ctx.body = parsed.success ? answerAclHook(parsed.data) : { result: 'deny' };
  });

  return router;
}
