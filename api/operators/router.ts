import Router from '@koa/router';
import type { AppDeps } from '../deps';
import { actorOf, authenticate } from '../auth/authenticate';
import { parseBody, parseId, parseQuery } from '../http/validate';
import { InviteOperatorSchema, JoinWorkspaceSchema, MemberUpdateSchema } from '../auth/schema';
import { inviteOperator } from './inviteOperator';
import { acceptInvitation, invitationInfo } from './joinWorkspace';
import { updateMember } from './updateMember';
import { getMember, respondMemberList } from './listMembers';
import { authorize } from '../policy/policy';

/** Members list (GET /operator[/:id]), invitations (POST /operator, /operators/join-workspace) and member level/active changes (PUT /operator/:id). */
export function operatorsRouter(deps: AppDeps) {
  const router = new Router();
  const auth = authenticate(deps);

  router.post('/operator', auth, async (ctx) => {
    const input = parseBody(ctx, InviteOperatorSchema);
    ctx.status = 201;
    ctx.body = { data: await inviteOperator(deps, actorOf(ctx), input) };
  });

  router.get('/operator', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'team.read');
    await respondMemberList(ctx, deps.knex, actor);
  });

  router.get('/operator/:id', auth, async (ctx) => {
    const actor = actorOf(ctx);
    authorize(actor, 'team.read');
    ctx.body = { data: await getMember(deps.knex, actor, parseId(ctx.params.id)) };
  });

  router.put('/operator/:id', auth, async (ctx) => {
    const id = parseId(ctx.params.id);
    const input = parseBody(ctx, MemberUpdateSchema);
    ctx.body = { data: await updateMember(deps, actorOf(ctx), id, input) };
  });

  router.get('/operators/join-workspace', async (ctx) => {
    ctx.body = { data: await invitationInfo(deps, parseQuery(ctx, JoinWorkspaceSchema)) };
  });

  router.post('/operators/join-workspace', async (ctx) => {
    ctx.body = { data: await acceptInvitation(deps, parseBody(ctx, JoinWorkspaceSchema)) };
  });

  return router;
}
