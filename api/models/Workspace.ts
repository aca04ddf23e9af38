import { BaseModel } from './BaseModel';

export class Workspace extends BaseModel {
  static override tableName = 'workspaces';
  static override get jsonAttributes() {
    return ['powerUps'];
  }
  id!: number;
  name!: string;
  avatar!: string | null;
  customerIdentifier!: string;
  timeZone!: string;
  powerUps!: unknown[];
  createdAt!: Date;
  updatedAt!: Date;
}
