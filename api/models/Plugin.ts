import type { Modifiers } from 'objection';
import { BaseModel } from './BaseModel';
import { bySort } from './modifiers';

/** A side-panel plugin: an HTTPS endpoint loaded in an iframe; authSecret (shown to managers in settings, never put in the frame) signs the short-lived tokens the frame is handed (docs/plugins.md). */
export class Plugin extends BaseModel {
  static override tableName = 'plugins';
  id!: number;
  workspaceId!: number;
  name!: string;
  endpoint!: string;
  dev!: boolean;
  authSecret!: string;
  sort!: number;
  createdAt!: Date;
  updatedAt!: Date;

  static override modifiers: Modifiers = {
    sorted: bySort('plugins'),
  };
}
