/**
 * Values the prerendered pages need but only the running api knows (api/config.ts): its public address, for
 * the canonical link, Open Graph, sitemap.xml and robots.txt, and the contacts of the 'Plano personalizado'
 * dialog (SUPPORT_PHONES, SUPPORT_EMAIL, as the in-app dialog shows them). The build writes these tokens;
 * api/http/serveUi.ts replaces every `%BALCAO_…%` token when it serves a page (the vite dev server does the
 * same in ui/site/vitePlugin.ts).
 */
export const PLACEHOLDERS = {
  origin: '%BALCAO_ORIGIN%',
  supportEmail: '%BALCAO_SUPPORT_EMAIL%',
  supportPhone1: '%BALCAO_SUPPORT_PHONE_1%',
  supportPhone2: '%BALCAO_SUPPORT_PHONE_2%',
  /** The phones as `tel:` targets (digits and a leading +). */
  supportTel1: '%BALCAO_SUPPORT_TEL_1%',
  supportTel2: '%BALCAO_SUPPORT_TEL_2%',
} as const;

/** An absolute address on the site, for the canonical link, og:url, og:image and the sitemap. */
export const absolute = (path: string): string => `${PLACEHOLDERS.origin}${path}`;
