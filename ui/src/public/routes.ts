/**
 * The addresses of the prerendered public site (docs/public-site.md). ui/site builds one HTML file for each
 * and api/http/serveUi.ts serves it; the SPA, when it meets one of them in a client-side navigation, hands
 * the visitor to the server (ServerPage.tsx). ui/site/render.tsx checks that the pages it renders are exactly
 * these, so this list, kept apart to stay out of the site's content, cannot drift.
 */
export const PUBLIC_PAGE_PATHS = [
  '/',
  '/pricing',
  '/whatsapp',
  '/facebook',
  '/telegram',
  '/instagram',
  '/email',
  '/features',
  '/bot',
  '/terms',
  '/privacy',
  '/ganhomais',
  '/desenvolvimento',
] as const;

export type PublicPagePath = (typeof PUBLIC_PAGE_PATHS)[number];
