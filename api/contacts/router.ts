import Router from '@koa/router';
import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { actorOf, authenticate } from '../auth/authenticate';
import { parseBody, parseId } from '../http/validate';
import { loadViewer } from '../policy/conversations';
import { parseQuery } from '../http/validate';
import { ContactImportSchema, ContactListQuerySchema, EmailConversationSchema } from './schema';
import { commitContactsImport, previewContactsImport } from './importContacts';
import { listContacts } from './listContacts';
import { startEmailConversation } from './startEmailConversation';

/**
 * The Contacts page's calls (docs/contacts.md): the list, the CSV import (level 6+) and a conversation started
 * by e-mail. A leaf area: it uses customers, campaigns (phones), reports (labels), the inbox's send path and
 * the e-mail channel, and nothing imports it, so api/customers (imported by reports) stays out of loops.
 */
export function contactsRouter(deps: AppDeps) {
  const router = new Router();
  const auth = authenticate(deps);
  const viewerOf = (ctx: Context) => loadViewer(deps.knex, actorOf(ctx));

  router.get('/customer', auth, async (ctx) => {
    ctx.body = await listContacts(deps.knex, await viewerOf(ctx), parseQuery(ctx, ContactListQuerySchema));
  });

  router.post('/customer/import/preview', auth, async (ctx) => {
    const { content } = parseBody(ctx, ContactImportSchema);
    ctx.body = { data: await previewContactsImport(deps.knex, actorOf(ctx), await viewerOf(ctx), content) };
  });

  router.post('/customer/import', auth, async (ctx) => {
    const { content } = parseBody(ctx, ContactImportSchema);
    ctx.body = { data: await commitContactsImport(deps.knex, actorOf(ctx), await viewerOf(ctx), content) };
  });

  router.post('/customer/:customerId/email-conversation', auth, async (ctx) => {
    const id = parseId(ctx.params.customerId);
    const input = parseBody(ctx, EmailConversationSchema);
    const viewer = await viewerOf(ctx);
    ctx.body = { data: await startEmailConversation(deps, viewer, id, input) };
  });
  return router;
}
