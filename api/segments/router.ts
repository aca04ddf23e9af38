import Router from '@koa/router';
import type { AppDeps } from '../deps';
import { actorOf, authenticate } from '../auth/authenticate';
import { parseBody, parseId } from '../http/validate';
import { deleteSegment } from './deleteSegment';
import { presentSegment } from './presenters';
import { listSegments } from './queries';
import { saveSegment } from './saveSegment';
import { SegmentSaveSchema, SegmentSortSchema } from './schema';
import { sortSegments } from './sortSegments';
import { setSegmentSubscription } from './subscribeSegment';

/** Saved inbox filters (docs/api/inbox.md "Contacts, segments…"); permissions in ./permissions.ts. */
export function segmentsRouter(deps: AppDeps) {
  const router = new Router();
  const auth = authenticate(deps);

  router.get('/inbox/segments', auth, async (ctx) => {
    ctx.body = { data: (await listSegments(deps.knex, actorOf(ctx))).map(presentSegment) };
  });

  router.post('/inbox/segments', auth, async (ctx) => {
    const input = parseBody(ctx, SegmentSaveSchema);
    const row = await saveSegment(deps, actorOf(ctx), input);
    if (input.id === undefined) ctx.status = 201;
    ctx.body = { data: presentSegment(row) };
  });

  router.patch('/inbox/segments/sort', auth, async (ctx) => {
    const ids = await sortSegments(deps, actorOf(ctx), parseBody(ctx, SegmentSortSchema));
    ctx.body = { data: { ids } };
  });

  router.post('/inbox/segments/subscribe/:id', auth, async (ctx) => {
    ctx.body = { data: presentSegment(await setSegmentSubscription(deps, actorOf(ctx), parseId(ctx.params.id), true)) };
  });

  router.post('/inbox/segments/unsubscribe/:id', auth, async (ctx) => {
    ctx.body = { data: presentSegment(await setSegmentSubscription(deps, actorOf(ctx), parseId(ctx.params.id), false)) };
  });

  router.delete('/inbox/segments/:id', auth, async (ctx) => {
    ctx.body = { data: presentSegment(await deleteSegment(deps, actorOf(ctx), parseId(ctx.params.id))) };
  });

  return router;
}
