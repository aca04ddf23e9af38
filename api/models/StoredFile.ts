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

/** A stored file as a message's file entry or a campaign's attachment names it (the row's key and what a download shows). */
export interface StoredFileRef {
  key: string;
  fileName: string;
  mime: string;
  size: number;
}
