import type { Modifiers, RelationMappings } from 'objection';
import { BaseModel } from './BaseModel';
import { manyToMany } from './relations';
import { bySort } from './modifiers';
import { Operator } from './Operator';

/** A team of agents; a group's conversations are visible to its members only (SPEC §6). */
export class Group extends BaseModel {
  static override tableName = 'groups';
  id!: number;
  workspaceId!: number;
  name!: string;
  description!: string | null;
  icon!: string | null;
  sort!: number;
  createdAt!: Date;
  updatedAt!: Date;
  members?: Operator[];

  static override relationMappings = (): RelationMappings => ({
    members: manyToMany(Operator, 'groups.id', ['group_members.group_id', 'group_members.operator_id'], 'operators.id'),
  });

  static override modifiers: Modifiers = {
    sorted: bySort('groups'),
    /** Groups the operator is a member of. */
    withMember(qb, operatorId: number) {
      qb.whereExists(Group.relatedQuery('members').where('operators.id', operatorId));
    },
  };
}
