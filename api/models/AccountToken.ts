import { BaseModel } from './BaseModel';

export type AccountTokenPurpose = 'reset_password' | 'confirm_email' | 'invite' | 'renewal';

export class AccountToken extends BaseModel {
  static override tableName = 'account_tokens';
  id!: number;
  purpose!: AccountTokenPurpose;
  tokenHash!: string;
  operatorId!: number;
  workspaceId!: number | null;
  expiresAt!: Date;
  usedAt!: Date | null;
  createdAt!: Date;
}
