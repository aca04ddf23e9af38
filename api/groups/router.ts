import type { AppDeps } from '../deps';
import { resourceRouter } from '../crud/resourceRouter';
import { Group } from '../models/Group';
import { GroupCreateSchema, GroupUpdateSchema, type GroupCreateReq, type GroupUpdateReq } from './schema';
import { assertWorkspaceMembers, membersByGroup, replaceMembers } from './queries';

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

/** Groups at /api/group: every level reads them (inbox menus, filters), level 6+ writes (SPEC §6). */
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
      if (input.members) await replaceMembers(trx, actor, row.id, uniqueIds(input.members));
    },
    async load(rows, actor, trx) {
      const byGroup = await membersByGroup(trx ?? deps.knex, actor, rows.map((r) => r.id));
      for (const row of rows as GroupWithMembers[]) row.memberIds = byGroup.get(row.id) ?? [];
    },
  });
}
