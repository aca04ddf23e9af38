import type { AppDeps } from '../deps';
import { resourceRouter } from '../crud/resourceRouter';
import { Group } from '../models/Group';
import { GroupCreateSchema, GroupUpdateSchema, type GroupCreateReq, type GroupUpdateReq } from './schema';
import { assertWorkspaceMembers, membersByGroup, replaceMembers } from './queries';
import { afterGroupMembersChange, conversationsLeavingGroup } from '../assignment/memberChanges';
import { publishReassigned, type Reassigned } from '../assignment/redistribute';
import { afterGroupRoomChange, afterGroupRoomDeleted, groupRoomLeaving } from '../teamChat/realtime';

type GroupWithMembers = Group & { memberIds?: number[] };

export function presentGroup(row: GroupWithMembers) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    icon: row.icon,
    sort: row.sort,
    members: row.memberIds ?? [],
    createdAt: row.createdAt,
  };
}

const uniqueIds = (ids: number[]) => [...new Set(ids)];

/** What a save or delete changed, noted inside its transaction and acted on after commit (keyed by the row object). */
const memberChanges = new WeakMap<Group, { added: number[]; removed: number[] }>();
const leaving = new WeakMap<Group, Reassigned[]>();
const roomLeaving = new WeakMap<Group, { roomId: number; members: number[] }>();

/**
 * Groups at /api/group: every level reads them (inbox menus, filters), level 6+ writes (SPEC §6). A change
 * of members or a delete changes who sees the group's conversations and who the rotation picks: after
 * commit the engine redistributes and re-publishes (docs/visibility.md "Live re-fan-out").
 */
export function groupsRouter(deps: AppDeps) {
  return resourceRouter<Group, GroupCreateReq, GroupUpdateReq>(deps, {
    path: '/group',
    resource: 'group',
    model: Group,
    createSchema: GroupCreateSchema,
    updateSchema: GroupUpdateSchema,
    readAction: 'team.read',
    writeAction: 'groups.manage',
    list: { sortable: ['name', 'sort', 'createdAt', 'id'], defaultSort: { field: 'sort', order: 'asc' }, searchColumns: ['name', 'description'], maxLimit: 1000 },
    sortColumn: 'sort',
    present: presentGroup,
    async toColumns(input, actor, trx) {
      const { members, ...columns } = input;
      if (members) await assertWorkspaceMembers(trx, actor, uniqueIds(members));
      return columns;
    },
    async saveRelated(row, input, actor, trx) {
      if (input.members) memberChanges.set(row, await replaceMembers(trx, actor, row.id, uniqueIds(input.members)));
    },
    async beforeDelete(row, actor, trx) {
      leaving.set(row, await conversationsLeavingGroup(trx, actor.workspaceId, row.id));
      const room = await groupRoomLeaving(trx, actor.workspaceId, row.id);
      if (room) roomLeaving.set(row, room);
    },
    async afterWrite(event, row, actor) {
      const change = memberChanges.get(row);
      if (change) await afterGroupMembersChange(deps, actor.workspaceId, row.id, change);
      // The group's team chat room follows its members (docs/team-chat.md "Membership").
      if (change) await afterGroupRoomChange(deps, actor.workspaceId, row.id, change);
      const moved = leaving.get(row);
      if (event === 'deleted' && moved) await publishReassigned(deps, actor.workspaceId, moved);
      const room = roomLeaving.get(row);
      if (event === 'deleted' && room) await afterGroupRoomDeleted(deps, actor.workspaceId, room);
    },
    async load(rows, actor, trx) {
      const byGroup = await membersByGroup(trx ?? deps.knex, actor, rows.map((r) => r.id));
      for (const row of rows as GroupWithMembers[]) row.memberIds = byGroup.get(row.id) ?? [];
    },
  });
}
