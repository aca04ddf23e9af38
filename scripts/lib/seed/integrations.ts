import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { PluginCreateSchema } from '../../../api/plugins/schema';
import type { Team } from './team';

/** The demo's plugin: a page the product serves itself (ui/public/plugins/), so it works on a clean clone. */
export const DEMO_PLUGIN = { name: 'Exemplo: pedidos do cliente', endpoint: '/plugins/exemplo-pedidos.html' };

/**
 * The integrations of the demo, none of them broken: a working example plugin in the inbox's right panel
 * (it shows the contact and records an order as a contact property) and no webhook, since a webhook needs a
 * receiver of the company's own (the Webhook page opens empty, ready to fill in).
 */
export async function seedIntegrations(trx: Knex.Transaction, team: Team): Promise<void> {
  const plugin = PluginCreateSchema.parse({ ...DEMO_PLUGIN, dev: false });
  await trx('plugins').insert({ workspaceId: team.workspaceId, ...plugin, authSecret: randomBytes(24).toString('base64url'), sort: 0 });
}
