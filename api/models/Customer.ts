import type { Modifiers, RelationMappings } from 'objection';
import { BaseModel } from './BaseModel';
import { hasMany } from './relations';
import { newestFirst } from './modifiers';
import { CustomerProperty } from './CustomerProperty';
import { CustomerPlatform } from './CustomerPlatform';
import { contactMatch } from './contactMatch';

export type CustomerOrigin = 'visitor' | 'agent';

/** A contact. name, email and phone are its fixed properties; custom ones are CustomerProperty rows. */
export class Customer extends BaseModel {
  static override tableName = 'customers';
  id!: number;
  workspaceId!: number;
  name!: string | null;
  phone!: string | null;
  email!: string | null;
  avatar!: string | null;
  details!: string | null;
  origin!: CustomerOrigin;
  lastViewed!: Date | null;
  createdAt!: Date;
  updatedAt!: Date;
  properties?: CustomerProperty[];
  platforms?: CustomerPlatform[];

  static override relationMappings = (): RelationMappings => ({
    properties: hasMany(CustomerProperty, 'customers.id', 'customer_properties.customer_id'),
    platforms: hasMany(CustomerPlatform, 'customers.id', 'customer_platforms.customer_id'),
  });

  static override modifiers: Modifiers = {
    /** The contacts that match a search text (contactMatch.ts: accents folded in names, phone digits). */
    search(qb, text: string) {
      const m = contactMatch('customers', text);
      qb.whereRaw(m.sql, m.bindings);
    },
    newestFirst: newestFirst('customers'),
  };
}
