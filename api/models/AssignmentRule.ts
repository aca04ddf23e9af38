import type { Modifiers } from 'objection';
import { BaseModel } from './BaseModel';

/** SPEC §3: which conversations (channel) go to whom (a group, or one operator). */
export interface AssignmentTarget {
  group?: number | null;
  operator?: number | null;
  workspacePlatformId?: number | null;
}

/**
 * An auto-assignment rule. lastOperatorId is the round-robin cursor: lock the rule row (FOR UPDATE),
 * pick the first eligible online member after it, store the pick.
 */
export class AssignmentRule extends BaseModel {
  static override tableName = 'assignment_rules';
  static override jsonAttributes = ['rules'];
  id!: number;
  workspaceId!: number;
  name!: string;
  isActive!: boolean;
  rules!: AssignmentTarget;
  sort!: number;
  lastOperatorId!: number | null;
  lastAssignedAt!: Date | null;
  createdAt!: Date;
  updatedAt!: Date;

  static override modifiers: Modifiers = {
    active(qb) {
      qb.where('assignment_rules.is_active', true).orderBy('assignment_rules.sort').orderBy('assignment_rules.id');
    },
    forChannel(qb, channelId: number) {
      qb.whereRaw(`(assignment_rules.rules->>'workspacePlatformId')::int = ?`, [channelId]);
    },
  };
}
