import Router from '@koa/router';
import type { AppDeps } from '../deps';
import { authenticateViewer, viewerOf } from '../auth/viewer';
import { parseBody, parseQuery } from '../http/validate';
import { BoardQuerySchema, ColumnQuerySchema, KanbanMoveSchema } from './schema';
import { listBoard, listColumn } from './listColumns';
import { moveCard } from './moveCard';

/**
 * The kanban of conversations (docs/kanban.md): every level, each card through the inbox's visibility
 * (SPEC §6); the funnels it groups by are read at every level and managed at 6+ (./funnelsRouter.ts).
 */
export function kanbanRouter(deps: AppDeps) {
  const router = new Router();
  const guard = authenticateViewer(deps);

  router.get('/kanban', ...guard, async (ctx) => {
    ctx.body = { data: await listBoard(deps, viewerOf(ctx), parseQuery(ctx, BoardQuerySchema)) };
  });

  router.get('/kanban/column', ...guard, async (ctx) => {
    ctx.body = await listColumn(deps, viewerOf(ctx), parseQuery(ctx, ColumnQuerySchema));
  });

  router.post('/kanban/move', ...guard, async (ctx) => {
    ctx.body = { data: await moveCard(deps, viewerOf(ctx), parseBody(ctx, KanbanMoveSchema)) };
  });

  return router;
}
