import type { RelationMappings } from 'objection';
import { BaseModel } from './BaseModel';
import { belongsToOne } from './relations';
import { Customer } from './Customer';

/** A custom contact property; code is unique per customer and is what bots and filters refer to. */
export class CustomerProperty extends BaseModel {
  static override tableName = 'customer_properties';
  id!: number;
  workspaceId!: number;
  customerId!: number;
  label!: string;
  code!: string;
  value!: string;
  createdAt!: Date;
  updatedAt!: Date;
  customer?: Customer;

  static override relationMappings = (): RelationMappings => ({
    customer: belongsToOne(Customer, 'customer_properties.customer_id', 'customers.id'),
  });
}
