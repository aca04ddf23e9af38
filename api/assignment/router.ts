import Router from '@koa/router';
import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { resourceRouter } from '../crud/resourceRouter';
import { AssignmentRule } from '../models/AssignmentRule';
import { actorOf, authenticate } from '../auth/authenticate';
import { errors } from '../http/errors';
import { parseBody } from '../http/validate';
import { AssignmentRuleCreateSchema, AssignmentRuleUpdateSchema, PresenceSchema, AvailabilitySchema, type AssignmentRuleCreateReq, type AssignmentRuleUpdateReq } from './schema';
import { assertRuleTargets } from './queries';
import { setOperatorOnline } from './setOperatorOnline';
import { setAvailability } from './availability';

export function presentAssignmentRule(row: AssignmentRule) {
  return {
    id: row.id,
    name: row.name,
    isActive: row.isActive,
    rules: row.rules,
    sort: row.sort,
    lastOperatorId: row.lastOperatorId,
    lastAssignedAt: row.lastAssignedAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** /api/assignment-rules: level 6+ reads and writes (SPEC §6 "Level 6+ for … assignment"); nothing in the inbox reads them. */
export function assignmentRulesRouter(deps: AppDeps) {
  return resourceRouter<AssignmentRule, AssignmentRuleCreateReq, AssignmentRuleUpdateReq>(deps, {
    path: '/assignment-rules',
    resource: 'assignment-rules',
    model: AssignmentRule,
    createSchema: AssignmentRuleCreateSchema,
    updateSchema: AssignmentRuleUpdateSchema,
    readAction: 'assignment.manage',
    writeAction: 'assignment.manage',
    list: { sortable: ['name', 'sort', 'isActive', 'createdAt', 'id'], defaultSort: { field: 'sort', order: 'asc' }, filterable: ['isActive'], searchColumns: ['name'], maxLimit: 1000 },
    sortColumn: 'sort',
    present: presentAssignmentRule,
    async toColumns(input, actor, trx, mode) {
      if (input.rules) await assertRuleTargets(trx, actor.workspaceId, input.rules);
      // The insert returns only what it wrote: a new rule is active unless said otherwise.
      return mode === 'create' ? { ...input, isActive: input.isActive ?? true } : input;
    },
  });
}

/** POST /api/operators/presence {online}: the caller's own presence in the workspace of their token. */
export function presenceRouter(deps: AppDeps) {
  const router = new Router();
  router.post('/operators/presence', authenticate(deps), async (ctx: Context) => {
    const actor = actorOf(ctx);
    if (actor.kind !== 'operator') throw errors.forbidden();
    const { online } = parseBody(ctx, PresenceSchema);
    ctx.body = { data: await setOperatorOnline(deps, actor, online) };
  });
  /** PUT /api/operators/availability {availability}: 'online' or 'ausente', the caller's own (every level). */
  router.put('/operators/availability', authenticate(deps), async (ctx: Context) => {
    const actor = actorOf(ctx);
    if (actor.kind !== 'operator') throw errors.forbidden();
    const { availability } = parseBody(ctx, AvailabilitySchema);
    ctx.body = { data: await setAvailability(deps, actor, availability) };
  });
  return router;
}
