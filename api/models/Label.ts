import { BaseModel } from './BaseModel';

/** A tag ("Etiqueta"); the API path is /label as in SPEC §7. */
export class Label extends BaseModel {
  static override tableName = 'labels';
  id!: number;
  workspaceId!: number;
  name!: string;
  color!: string;
  textColor!: string;
  sort!: number;
  createdAt!: Date;
  updatedAt!: Date;
}
