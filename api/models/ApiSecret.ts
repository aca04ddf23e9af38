import type { Modifiers } from 'objection';
import { BaseModel } from './BaseModel';

/**
 * API credentials of a workspace. secret is the public key id shown in settings; the token is shown once
 * and kept only as tokenHash (hashOpaqueToken); tokenHint lets people recognise it.
 */
export class ApiSecret extends BaseModel {
  static override tableName = 'api_secrets';
  id!: number;
  workspaceId!: number;
  secret!: string;
  tokenHash!: string;
  tokenHint!: string | null;
  createdBy!: number | null;
  lastUsedAt!: Date | null;
  revokedAt!: Date | null;
  createdAt!: Date;

  static override modifiers: Modifiers = {
    active(qb) {
      qb.whereNull('api_secrets.revoked_at');
    },
  };
}
