import Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { AppDeps } from '../deps';
import { actorOf, authenticate } from '../auth/authenticate';
import { can } from '../policy/policy';
import { errors } from '../http/errors';
import { parseBody, parseId, parseQuery } from '../http/validate';
import { loadViewer } from '../policy/conversations';
import { findMemberRoom, findMessage, listRooms, messagePage, operatorsByIds } from './queries';
import { roomMemberIds } from './membership';
import { presentMessage, presentRoom } from './presenters';
import { mentionsOf, resolveMentions } from './mentions';
import { createRoom, deleteRoom, openDirect, updateRoom } from './rooms';
import { deleteMessage, editMessage, markRead, postMessage } from './messages';
import { searchTeam } from './search';
// The rooms' topics are told to the broker's checks when the chat's routes are mounted (as channels register their adapters).
import './topicAccess';
import { TEAM_TEXTS, TeamDirectSchema, TeamMessageEditSchema, TeamMessageSchema, TeamMessagesQuerySchema, TeamReadSchema, TeamRoomCreateSchema, TeamRoomUpdateSchema, TeamSearchSchema } from './schema';

/**
 * The team chat at /api/team (docs/team-chat.md): every level reads and writes in the rooms they are in
 * (a room they are not in, or of another workspace, is a 404); rooms of their own are created and managed
 * at level 6+. For people only: the workspace's API token acts for the workspace, not as a colleague.
 */
export function teamChatRouter(deps: AppDeps) {
  const router = new Router({ prefix: '/team' });
  const person = async (ctx: Context, next: Next) => {
    if (actorOf(ctx).kind !== 'operator') throw errors.forbidden(TEAM_TEXTS.apiToken);
    await next();
  };
  const guard = [authenticate(deps), person] as const;

  router.get('/rooms', ...guard, async (ctx) => {
    const actor = actorOf(ctx);
    const rows = await listRooms(deps.knex, actor);
    const manage = can(actor, 'teamRooms.manage');
    const data = rows.map((r) => presentRoom(r, manage));
    ctx.body = { data, matchCount: data.length, totalCount: data.length, unread: data.reduce((n, r) => n + r.unread, 0) };
  });

  router.post('/rooms', ...guard, async (ctx) => {
    const room = await createRoom(deps, actorOf(ctx), parseBody(ctx, TeamRoomCreateSchema));
    ctx.status = 201;
    ctx.body = { data: room };
  });

  router.post('/direct', ...guard, async (ctx) => {
    const { room, created } = await openDirect(deps, actorOf(ctx), parseBody(ctx, TeamDirectSchema));
    ctx.status = created ? 201 : 200;
    ctx.body = { data: room };
  });

  router.get('/search', ...guard, async (ctx) => {
    ctx.body = await searchTeam(deps.knex, actorOf(ctx), parseQuery(ctx, TeamSearchSchema));
  });

  /** A room the caller is in, with its members (names for the header and the mention of who wrote). */
  router.get('/rooms/:id', ...guard, async (ctx) => {
    const actor = actorOf(ctx);
    const room = await findMemberRoom(deps.knex, actor, parseId(ctx.params.id));
    const [row] = await listRooms(deps.knex, actor, room.id);
    const members = await operatorsByIds(deps.knex, await roomMemberIds(deps.knex, actor.workspaceId, room));
    ctx.body = { data: { ...presentRoom(row, can(actor, 'teamRooms.manage')), members } };
  });

  router.put('/rooms/:id', ...guard, async (ctx) => {
    ctx.body = { data: await updateRoom(deps, actorOf(ctx), parseId(ctx.params.id), parseBody(ctx, TeamRoomUpdateSchema)) };
  });

  router.delete('/rooms/:id', ...guard, async (ctx) => {
    await deleteRoom(deps, actorOf(ctx), parseId(ctx.params.id));
    ctx.status = 204;
  });

  router.get('/rooms/:id/messages', ...guard, async (ctx) => {
    const actor = actorOf(ctx);
    const room = await findMemberRoom(deps.knex, actor, parseId(ctx.params.id));
    const q = parseQuery(ctx, TeamMessagesQuerySchema);
    const { rows, hasMore } = await messagePage(deps.knex, room, q);
    const resolved = await resolveMentions(deps.knex, await loadViewer(deps.knex, actor), rows.map((r) => r.body));
    ctx.body = { data: rows.map((r) => presentMessage(deps.config, r, mentionsOf(r.body, resolved))), hasMore };
  });

  router.get('/rooms/:id/messages/:messageId', ...guard, async (ctx) => {
    const actor = actorOf(ctx);
    const room = await findMemberRoom(deps.knex, actor, parseId(ctx.params.id));
    const row = await findMessage(deps.knex, room, parseId(ctx.params.messageId));
    const resolved = await resolveMentions(deps.knex, await loadViewer(deps.knex, actor), [row.body]);
    ctx.body = { data: presentMessage(deps.config, row, mentionsOf(row.body, resolved)) };
  });

  router.post('/rooms/:id/messages', ...guard, async (ctx) => {
    const actor = actorOf(ctx);
    const message = await postMessage(deps, actor, parseId(ctx.params.id), parseBody(ctx, TeamMessageSchema));
    const resolved = await resolveMentions(deps.knex, await loadViewer(deps.knex, actor), [message.body]);
    ctx.status = 201;
    ctx.body = { data: { ...message, mentions: mentionsOf(message.body, resolved) } };
  });

  router.put('/rooms/:id/messages/:messageId', ...guard, async (ctx) => {
    const actor = actorOf(ctx);
    const message = await editMessage(deps, actor, parseId(ctx.params.id), parseId(ctx.params.messageId), parseBody(ctx, TeamMessageEditSchema));
    const resolved = await resolveMentions(deps.knex, await loadViewer(deps.knex, actor), [message.body]);
    ctx.body = { data: { ...message, mentions: mentionsOf(message.body, resolved) } };
  });

  router.delete('/rooms/:id/messages/:messageId', ...guard, async (ctx) => {
    ctx.body = { data: await deleteMessage(deps, actorOf(ctx), parseId(ctx.params.id), parseId(ctx.params.messageId)) };
  });

  router.post('/rooms/:id/read', ...guard, async (ctx) => {
    ctx.body = { data: await markRead(deps, actorOf(ctx), parseId(ctx.params.id), parseBody(ctx, TeamReadSchema)) };
  });

  return router;
}
