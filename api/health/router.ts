import Router from '@koa/router';
import type { AppDeps } from '../deps';

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

/** GET /api/health: 200 when every dependency answers, 503 naming the failing part otherwise. */
export function healthRouter(deps: AppDeps) {
  const router = new Router();
  router.get('/health', async (ctx) => {
    const [db, temporal, mqtt] = await Promise.all([
      within(2000, async () => {
        await deps.knex.raw('select 1');
        return true;
      }),
      within(2500, () => deps.temporal.healthy()),
      within(1000, deps.health?.mqtt ?? (async () => true)),
    ]);
    const data = { db: db ? 'ok' : 'fail', temporal: temporal ? 'ok' : 'fail', mqtt: mqtt ? 'ok' : 'fail' };
    if (db && temporal && mqtt) {
      ctx.body = { data };
      return;
    }
    ctx.status = 503;
    ctx.body = {
      data,
      errors: Object.entries(data)
        .filter(([, v]) => v !== 'ok')
        .map(([k]) => ({ type: 'ServiceUnavailableError', title: 'Serviço indisponível', key: k, descriptions: [`${k} não responde.`] })),
    };
  });
  return router;
}
