import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { WEBHOOK_EVENT_NAMES, WebhookSettingsSchema } from '../../../api/webhooks/schema';
import { newWebhookSecret } from '../../../api/webhooks/secret';
import { PluginCreateSchema } from '../../../api/plugins/schema';
import type { Team } from './team';

/**
 * Examples of the integrations, switched off: a webhook saved and then disabled (`disabled_at`, as after a
 * 410: nothing is recorded or sent until a manager saves it again) and a plugin marked 'Em
 * desenvolvimento'. Both point at example.com (RFC 2606), which never receives anything of ours.
 */
export async function seedIntegrations(trx: Knex.Transaction, team: Team): Promise<void> {
  const webhook = WebhookSettingsSchema.parse({
    webhook: 'https://example.com/balcao/webhook',
    email: 'ti@example.com',
    subscriptions: { 'message:received': true, 'session:status:changed': true },
  });
  await trx('webhooks').insert({
    workspaceId: team.workspaceId,
    url: webhook.webhook,
    email: webhook.email || null,
    subscriptions: WEBHOOK_EVENT_NAMES.filter((e) => webhook.subscriptions[e]),
    secret: newWebhookSecret(),
    disabledAt: new Date(),
  });

  const plugin = PluginCreateSchema.parse({ name: 'Exemplo: pedidos do cliente', endpoint: 'https://example.com/balcao/plugin/pedidos', dev: true });
  await trx('plugins').insert({ workspaceId: team.workspaceId, ...plugin, authSecret: randomBytes(24).toString('base64url'), sort: 0 });
}
