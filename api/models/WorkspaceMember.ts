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
  lastSeenAt!: Date | null;
  createdAt!: Date;
}
