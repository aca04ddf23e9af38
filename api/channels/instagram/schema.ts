import { z } from 'zod';

/**
 * POST /integrations/instagram (docs/channels/meta.md): an Instagram professional account linked to a page
 * this workspace connected. No username or password is ever asked (docs/decisions.md).
 */
export const InstagramConnectSchema = z.object({
  instagramAccountId: z.string({ error: 'Escolha uma conta do Instagram.' }).regex(/^\d{1,30}$/, 'Escolha uma conta do Instagram.'),
});
export type InstagramConnectReq = z.infer<typeof InstagramConnectSchema>;

/** An item of GET /integrations/instagram/accounts: an account linked to a connected page (no tokens); the UI reads this type. */
export interface InstagramAccountView {
  id: string;
  username: string | null;
  name: string | null;
  picture: string | null;
  pageId: string;
  pageName: string;
  connected: boolean;
}
