import { BaseModel } from './BaseModel';

/** A kanban funnel ("Funil") of a workspace; its stages live in funnel_stages (docs/kanban.md). */
export class Funnel extends BaseModel {
  static override tableName = 'funnels';
  id!: number;
  workspaceId!: number;
  name!: string;
  sort!: number;
  createdAt!: Date;
  updatedAt!: Date;
}
