import { BaseModel } from './BaseModel';

/** An uploaded file; key is the storage key (unique), messages' file entries refer to it. */
export class StoredFile extends BaseModel {
  static override tableName = 'stored_files';
  id!: number;
  workspaceId!: number;
  key!: string;
  fileName!: string;
  mime!: string;
  size!: number;
  sha256!: string | null;
  operatorId!: number | null;
  createdAt!: Date;
}
