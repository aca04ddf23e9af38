import type { Knex } from 'knex';
import { Webhook, type WebhookEvent } from '../models/Webhook';
import { WebhookDelivery } from '../models/WebhookDelivery';
import { scoped, type Scope } from '../db/scope';

/** The workspace's webhook (SPEC has one per workspace; the table allows more, the oldest is it). */
export function findWebhook(scope: Scope, trx?: Knex.Transaction): Promise<Webhook | undefined> {
  return scoped<Webhook>(Webhook, scope, trx).orderBy('id').first() as unknown as Promise<Webhook | undefined>;
}

/** Enabled webhooks of the workspace subscribed to `event`. */
export function subscribedWebhooks(knex: Knex | Knex.Transaction, workspaceId: number, event: WebhookEvent): Promise<Webhook[]> {
  return scoped<Webhook>(Webhook, { workspaceId }, knex as Knex.Transaction).modify('enabled').modify('subscribedTo', event).orderBy('id') as unknown as Promise<Webhook[]>;
}

export const DELIVERY_LOG_SIZE = 50;

/** The latest deliveries of the workspace, newest first (the settings screen's log). */
export function latestDeliveries(scope: Scope, limit = DELIVERY_LOG_SIZE): Promise<WebhookDelivery[]> {
  return scoped<WebhookDelivery>(WebhookDelivery, scope).modify('newestFirst').limit(limit) as unknown as Promise<WebhookDelivery[]>;
}
