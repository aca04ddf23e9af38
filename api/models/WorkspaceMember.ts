import { BaseModel } from './BaseModel';

export class WorkspaceMember extends BaseModel {
  static override tableName = 'workspace_members';
  static override get idColumn() {
    return ['workspace_id', 'operator_id'];
  }
  workspaceId!: number;
  operatorId!: number;
  accessLevel!: number;
  isActive!: boolean;
  tokenVersion!: number;
  invitedBy!: number | null;
  isOnline!: boolean;
  /** Chosen in the header: 'ausente' takes no new auto-assigned calls and no push for unassigned ones (docs/availability.md). */
  availability!: 'online' | 'ausente';
  lastSeenAt!: Date | null;
  createdAt!: Date;
}
