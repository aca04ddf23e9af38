import Router from '@koa/router';
import type { Context } from 'koa';
import type { z } from 'zod';
import type { AppDeps } from '../deps';
import { MqttAclHookSchema, MqttAuthHookSchema } from './schema';
import { answerAclHook, answerAuthHook, hooksEnabled, isBrokerRequest } from './emqxHooks';
import { errors } from '../http/errors';

/**
 * HTTP authentication and authorization hooks for an external broker (EMQX 5 request/answer format).
 *
 * They exist only with an external broker and its shared secret (MQTT_URL and MQTT_HOOK_SECRET): otherwise
 * 404. A request without the broker's secret, and anything malformed, answers 200 with `result: "deny"`
 * instead of a 4xx: EMQX reads a 4xx as "ignore" and moves on to the next authorizer, whose default may be
 * to allow, so a broker configured with a wrong secret fails closed (and says so in the log).
 */
export function mqttRouter(deps: AppDeps) {
  const router = new Router({ prefix: '/mqtt' });
  const body = (ctx: Context) => (ctx.request as { body?: unknown }).body;
  let lastWarning = 0;

  /** undefined: answer; otherwise the refusal to send. */
  const refusal = (ctx: Context): { result: 'deny' } | undefined => {
    if (!hooksEnabled(deps.config)) throw errors.notFound('Rota não encontrada.');
    if (isBrokerRequest(deps.config, ctx.get('Authorization') || undefined)) return undefined;
    if (Date.now() - lastWarning > 60_000) {
      lastWarning = Date.now();
      deps.logger.warn({ ip: ctx.ip, path: ctx.path }, 'mqtt hook called without the broker secret (MQTT_HOOK_SECRET): denied');
    }
    return { result: 'deny' };
  };

  /** A hook's route: the broker's secret first, then the body through its schema; anything off is a deny. */
  const hook = <T>(schema: z.ZodType<T>, answer: (input: T) => unknown) => async (ctx: Context) => {
    const refused = refusal(ctx);
    if (refused) {
      ctx.body = refused;
      return;
    }
    const parsed = schema.safeParse(body(ctx));
    ctx.body = parsed.success ? await answer(parsed.data) : { result: 'deny' };
  };

  router.post('/auth', hook(MqttAuthHookSchema, (input) => answerAuthHook(deps, input)));
  router.post('/acl', hook(MqttAclHookSchema, answerAclHook));

  return router;
}
