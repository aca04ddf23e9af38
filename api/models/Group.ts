import type { Modifiers, RelationMappings } from 'objection';
import { BaseModel } from './BaseModel';
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
    members: {
      relation: BaseModel.ManyToManyRelation,
      modelClass: Operator,
      join: {
        from: 'groups.id',
        through: { from: 'group_members.group_id', to: 'group_members.operator_id' },
        to: 'operators.id',
      },
    },
  });

  static override modifiers: Modifiers = {
    sorted(qb) {
      qb.orderBy('groups.sort').orderBy('groups.id');
    },
    /** Groups the operator is a member of. */
    withMember(qb, operatorId: number) {
      qb.whereExists(Group.relatedQuery('members').where('operators.id', operatorId));
    },
  };
}
