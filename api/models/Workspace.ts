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
  /** An agent's reply that ends a bot session also assigns an unassigned conversation to them (docs/bots.md). */
  assignOnManualReply!: boolean;
  /** Minutes without activity after which an agent turns 'ausente' (null: never). */
  awayAfterMinutes!: number | null;
  powerUps!: unknown[];
  createdAt!: Date;
  updatedAt!: Date;
}
