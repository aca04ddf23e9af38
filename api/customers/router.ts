import Router from '@koa/router';
import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { actorOf } from '../auth/authenticate';
import { authenticateViewer, viewerOf } from '../auth/viewer';
import { parseListQuery, writeList } from '../http/listQuery';
import { parseBody, parseId, parseQuery } from '../http/validate';
import { publishConversationEvent } from '../conversations/fanout';
import { deleteCustomerProperty } from './deleteCustomerProperty';
import { listMediaMessages } from './listMediaMessages';
import { mergeCustomers } from './mergeCustomers';
import { presentCustomer } from './presenters';
import { loadCustomerDetails } from './queries';
import { saveCustomerProperty } from './saveCustomerProperty';
import { CustomerPropertySchema, CustomerUpdateSchema, MediaMessagesQuerySchema, MergeCustomersSchema, PropertySuggestionsQuerySchema } from './schema';
import { CUSTOMER_LIST_OPTIONS, searchCustomers } from './searchCustomers';
import { suggestProperties } from './suggestProperties';
import { updateCustomer } from './updateCustomer';

/**
 * Contacts (docs/api/inbox.md "Contacts…"): a customer is reachable only through a conversation the caller
 * may see (api/policy/conversations.ts); anything else is a 404.
 */
export function customersRouter(deps: AppDeps) {
  const router = new Router();
  const guard = authenticateViewer(deps);
  const customerView = async (ctx: Context, id: number) => presentCustomer(await loadCustomerDetails(deps.knex, viewerOf(ctx), id));

  /** The contact's name, phone and e-mail show in its conversations: tell whoever sees them. */
  const announce = async (workspaceId: number, conversationIds: number[]) => {
    for (const id of conversationIds) await publishConversationEvent(deps, 'chat.callStatus', workspaceId, id);
  };
  const conversationsOf = async (workspaceId: number, customerId: number): Promise<number[]> =>
    (await deps.knex('customer_platforms').where({ workspaceId, customerId }).select('id')).map((r: { id: number }) => r.id);

  router.get('/inbox/customer/:customerId', ...guard, async (ctx) => {
    ctx.body = { data: await customerView(ctx, parseId(ctx.params.customerId)) };
  });

  router.put('/inbox/customer/:customerId', ...guard, async (ctx) => {
    const id = parseId(ctx.params.customerId);
    const input = parseBody(ctx, CustomerUpdateSchema);
    await updateCustomer(deps, viewerOf(ctx), id, input);
    ctx.body = { data: await customerView(ctx, id) };
    await announce(viewerOf(ctx).workspaceId, await conversationsOf(viewerOf(ctx).workspaceId, id));
  });

  router.post('/inbox/customer/:customerId/properties', ...guard, async (ctx) => {
    const id = parseId(ctx.params.customerId);
    await saveCustomerProperty(deps, viewerOf(ctx), id, parseBody(ctx, CustomerPropertySchema));
    ctx.body = { data: await customerView(ctx, id) };
  });

  router.delete('/inbox/customer/:customerId/properties/:propertyId', ...guard, async (ctx) => {
    const id = parseId(ctx.params.customerId);
    await deleteCustomerProperty(deps, viewerOf(ctx), id, parseId(ctx.params.propertyId));
    ctx.body = { data: await customerView(ctx, id) };
  });

  router.get('/inbox/media-messages', ...guard, async (ctx) => {
    ctx.body = await listMediaMessages(deps, viewerOf(ctx), parseQuery(ctx, MediaMessagesQuerySchema));
  });

  router.put('/customer/merge-customer', ...guard, async (ctx) => {
    const input = parseBody(ctx, MergeCustomersSchema);
    const result = await mergeCustomers(deps, actorOf(ctx), viewerOf(ctx), input);
    ctx.body = { data: await customerView(ctx, result.customerId) };
    // The moved conversations changed contact, and the stay's own ones may show filled-in fields.
    await announce(viewerOf(ctx).workspaceId, await conversationsOf(viewerOf(ctx).workspaceId, result.customerId));
  });

  router.get('/customer/all-customers', ...guard, async (ctx) => {
    const q = parseListQuery(ctx, CUSTOMER_LIST_OPTIONS);
    writeList(ctx, 'customer', q, await searchCustomers(deps.knex, viewerOf(ctx), q));
  });

  router.get('/customer/properties', ...guard, async (ctx) => {
    ctx.body = { data: await suggestProperties(deps.knex, viewerOf(ctx), parseQuery(ctx, PropertySuggestionsQuerySchema)) };
  });

  return router;
}
