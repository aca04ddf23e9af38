import { z } from 'zod';

/**
 * The Facebook screens' requests (docs/channels/meta.md), shared with ui/src/settings/channels/facebook.
 * A page is saved from a login session (the sealed user token the OAuth callback handed back), never from
 * a token the browser sends: the page token is read from Meta on the server.
 */
export const FacebookOAuthStartSchema = z.object({
  returnTo: z.string().max(100).optional(),
});

export const FacebookPagesQuerySchema = z.object({
  session: z.string({ error: 'Faça o login com o Facebook primeiro.' }).min(1, 'Faça o login com o Facebook primeiro.').max(4096),
});

export const FacebookPageConnectSchema = z.object({
  session: z.string({ error: 'Faça o login com o Facebook primeiro.' }).min(1, 'Faça o login com o Facebook primeiro.').max(4096),
  pageId: z.string({ error: 'Escolha uma página.' }).regex(/^\d{1,30}$/, 'Escolha uma página.'),
});
export type FacebookPageConnectReq = z.infer<typeof FacebookPageConnectSchema>;
