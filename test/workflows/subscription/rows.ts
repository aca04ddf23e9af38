import type { Knex } from 'knex';
import type { Publisher } from '../../../api/realtime/publisher';
import type { SubscriptionStatus } from '../../../api/models/Subscription';
import { makeWorkspace } from '../../helpers/factories';

export interface SubscriptionRow {
  id: number;
  workspaceId: number;
  status: SubscriptionStatus;
  expiresAt: Date;
  updatedAt: Date;
}

/** A fresh workspace with one subscription row, inserted as signup would leave it. */
export async function insertSubscription(knex: Knex, expiresAt: Date, status: SubscriptionStatus = 'active'): Promise<SubscriptionRow> {
  const ws = await makeWorkspace(knex);
  const [row] = await knex('subscriptions').insert({ workspaceId: ws.id, license: 'trial', status, expiresAt }).returning(['id', 'workspaceId', 'status', 'expiresAt', 'updatedAt']);
  return row as SubscriptionRow;
}

export async function readSubscription(knex: Knex, id: number): Promise<SubscriptionRow> {
  return knex('subscriptions').where({ id }).first('id', 'workspaceId', 'status', 'expiresAt', 'updatedAt');
}

/** Keeps what activities publish, so a test can check the realtime event they emit. */
export class RecordingPublisher implements Publisher {
  readonly events: { topic: string; event: string; data: unknown }[] = [];
  async publish<T>(topic: string, event: string, data: T): Promise<boolean> {
    this.events.push({ topic, event, data });
    return true;
  }
  async close(): Promise<void> {}
}
