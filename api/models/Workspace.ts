import { BaseModel } from './BaseModel';

export class Workspace extends BaseModel {
  static override tableName = 'workspaces';
  id!: number;
  name!: string;
  avatar!: string | null;
  customerIdentifier!: string;
  timeZone!: string;
  powerUps!: unknown[];
  createdAt!: Date;
  updatedAt!: Date;
}
