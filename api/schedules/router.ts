import Router from '@koa/router';
import type { AppDeps } from '../deps';
import { authenticateViewer, viewerOf } from '../auth/viewer';
import { parseBody, parseId } from '../http/validate';
import { parseListQuery, writeList } from '../http/listQuery';
import { ScheduleCreateSchema, ScheduleUpdateSchema } from './schema';
import { findVisibleSchedule, listSchedules, SCHEDULE_LIST_OPTIONS } from './queries';
import { presentSchedule } from './presenters';
import { cancelSchedule, createSchedule, updateSchedule, type Saved } from './saveSchedule';
import { kickScheduledMessage } from './kick';

/**
 * Scheduled messages (docs/scheduled-messages.md): every level, each schedule through its conversation's
 * visibility (SPEC §6); changing one is for its author or level 6+. Each change is committed, then its
 * `scheduled-message:{id}` workflow is told (a failed tell is retried by the worker's sweep).
 */
export function schedulesRouter(deps: AppDeps) {
  const router = new Router();
  const guard = authenticateViewer(deps);

  const answer = async (viewer: ReturnType<typeof viewerOf>, saved: Saved) => {
    await kickScheduledMessage(deps, saved);
    return { data: presentSchedule(await findVisibleSchedule(deps.knex, viewer, saved.id), viewer) };
  };

  router.get('/schedules', ...guard, async (ctx) => {
    const viewer = viewerOf(ctx);
    const q = parseListQuery(ctx, SCHEDULE_LIST_OPTIONS);
    const { rows, matchCount, totalCount } = await listSchedules(deps.knex, viewer, q);
    writeList(ctx, 'schedules', q, { rows: rows.map((r) => presentSchedule(r, viewer)), matchCount, totalCount });
  });

  router.get('/schedules/:id', ...guard, async (ctx) => {
    const viewer = viewerOf(ctx);
    ctx.body = { data: presentSchedule(await findVisibleSchedule(deps.knex, viewer, parseId(ctx.params.id)), viewer) };
  });

  router.post('/schedules', ...guard, async (ctx) => {
    const viewer = viewerOf(ctx);
    const input = parseBody(ctx, ScheduleCreateSchema);
    const saved = await createSchedule(deps, viewer, input);
    ctx.status = 201;
    ctx.body = await answer(viewer, saved);
  });

  router.put('/schedules/:id', ...guard, async (ctx) => {
    const viewer = viewerOf(ctx);
    const id = parseId(ctx.params.id);
    const input = parseBody(ctx, ScheduleUpdateSchema);
    ctx.body = await answer(viewer, await updateSchedule(deps, viewer, id, input));
  });

  router.post('/schedules/:id/cancel', ...guard, async (ctx) => {
    const viewer = viewerOf(ctx);
    ctx.body = await answer(viewer, await cancelSchedule(deps, viewer, parseId(ctx.params.id)));
  });

  return router;
}
