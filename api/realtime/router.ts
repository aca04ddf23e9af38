import Router from '@koa/router';
import type { Context } from 'koa';
import type { z } from 'zod';
import type { AppDeps } from '../deps';
import { MqttAclHookSchema, MqttAuthHookSchema } from './schema';
import { answerAclHook, answerAuthHook, hooksEnabled, isBrokerRequest } from './emqxHooks';
import { answerRabbitResource, answerRabbitTopic, answerRabbitUser, answerRabbitVhost, type RabbitAnswer, type RabbitParams } from './rabbitHooks';
import { errors } from '../http/errors';

const FORM = 'application/x-www-form-urlencoded';
/** RabbitMQ's requests are a few short fields; anything longer is not one. */
const MAX_FORM_BYTES = 16 * 1024;

/** The form body RabbitMQ posts (the JSON body parser leaves it unread); undefined when too long. */
async function formBody(ctx: Context): Promise<RabbitParams | undefined> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
}

/**
 * HTTP authentication and authorization hooks for an external broker, in two dialects told apart by the
 * body: JSON is EMQX 5's request/answer format; a form is RabbitMQ's HTTP auth backend (rabbitHooks.ts),
 * which cannot send headers, so it proves itself with `?secret=<MQTT_HOOK_SECRET>` in the URLs it is
 * configured with, and gets `allow`/`deny` in plain text: /auth is its user_path, /acl its vhost_path,
 * resource_path and topic_path (told apart by their fields).
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

  /** RabbitMQ's dialect: the secret in the query, a form body, a plain-text answer; anything off is a deny. */
  const rabbit = async (ctx: Context, answer: (p: RabbitParams) => RabbitAnswer | Promise<RabbitAnswer>) => {
    if (!hooksEnabled(deps.config)) throw errors.notFound('Rota não encontrada.');
    const secret = typeof ctx.query.secret === 'string' ? ctx.query.secret : '';
    ctx.type = 'text/plain';
    if (!isBrokerRequest(deps.config, `Bearer ${secret}`)) {
      refusal(ctx); // logs the refusal (at most once a minute)
      ctx.body = 'deny';
      return;
    }
    const params = await formBody(ctx);
    ctx.body = params ? await answer(params) : 'deny';
  };
  const isForm = (ctx: Context) => ctx.is(FORM) === FORM;

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

  const emqxAuth = hook(MqttAuthHookSchema, (input) => answerAuthHook(deps, input));
  const emqxAcl = hook(MqttAclHookSchema, (input) => answerAclHook(deps, input));
  router.post('/auth', (ctx) => (isForm(ctx) ? rabbit(ctx, (p) => answerRabbitUser(deps, p)) : emqxAuth(ctx)));
  router.post('/acl', (ctx) =>
    isForm(ctx)
      ? rabbit(ctx, (p) => (p.resource === 'topic' ? answerRabbitTopic(deps, p) : p.resource ? answerRabbitResource(p) : answerRabbitVhost(p)))
      : emqxAcl(ctx),
  );

  return router;
}
