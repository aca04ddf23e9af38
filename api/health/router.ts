import Router from '@koa/router';
import type { AppDeps } from '../deps';
import { parseQuery } from '../http/validate';
import { HealthQuerySchema, type HealthPart } from './schema';
import { createWorkerProbe } from './workerProbe';

async function within(ms: number, probe: () => Promise<boolean>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      probe().catch(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

const FAILURE: Record<HealthPart, (deps: AppDeps) => string> = {
  db: () => 'db não responde.',
  temporal: () => 'temporal não responde.',
  mqtt: () => 'mqtt não responde.',
  worker: (deps) => `worker: nenhum worker consome a fila ${deps.temporal.taskQueue} do Temporal.`,
};

/**
 * GET /api/health: 200 when every part answers, 503 naming the failing parts otherwise. The worker part
 * asks Temporal whether a worker polls the task queue (api/health/workerProbe.ts), so health is ok only
 * when a bot reply or a send would actually run; `?parts=` narrows the check (api/health/schema.ts).
 */
export function healthRouter(deps: AppDeps) {
  const router = new Router();
  const workerPolls = createWorkerProbe(deps.temporal, deps.config.temporalNamespace, {
    onError: (err) => deps.logger.warn({ err, taskQueue: deps.temporal.taskQueue }, 'health: Temporal did not say which workers poll the task queue (DescribeTaskQueue failed)'),
  });
  const probes: Record<HealthPart, () => Promise<boolean>> = {
    db: () =>
      within(2000, async () => {
        await deps.knex.raw('select 1');
        return true;
      }),
    temporal: () => within(2500, () => deps.temporal.healthy()),
    mqtt: () => within(1000, deps.health?.mqtt ?? (async () => true)),
    worker: () => within(2500, workerPolls),
  };
  router.get('/health', async (ctx) => {
    const { parts } = parseQuery(ctx, HealthQuerySchema);
    const answers = await Promise.all(parts.map((p) => probes[p]()));
    const data = Object.fromEntries(parts.map((p, i) => [p, answers[i] ? 'ok' : 'fail'])) as Partial<Record<HealthPart, 'ok' | 'fail'>>;
    const failing = parts.filter((_, i) => !answers[i]);
    if (!failing.length) {
      ctx.body = { data };
      return;
    }
    ctx.status = 503;
    ctx.body = {
      data,
      errors: failing.map((k) => ({ type: 'ServiceUnavailableError', title: 'Serviço indisponível', key: k, descriptions: [FAILURE[k](deps)] })),
    };
  });
  return router;
}
