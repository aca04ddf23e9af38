import { BaseModel } from './BaseModel';

export class Operator extends BaseModel {
  static override tableName = 'operators';
  static override get jsonAttributes() {
    return ['preferences'];
  }
  id!: number;
  name!: string;
  email!: string;
  phone!: string | null;
  avatar!: string | null;
  passwordHash!: string | null;
  verificationLevel!: number;
  tokenVersion!: number;
  preferences!: Record<string, unknown>;
  createdAt!: Date;
  updatedAt!: Date;
}
