import type { Context } from 'koa';
import { errors } from '../../http/errors';
import { siteAllowed } from './allowedSites';

export const SITE_NOT_ALLOWED = 'Este chat não está liberado para este site. O administrador pode liberá-lo em Configurações › Canais › Chat do site › Sites permitidos.';

/** The page a widget call comes from: the Origin header (every cross-origin fetch sends it), else the Referer. */
function pageOf(ctx: Context): URL | undefined {
  for (const raw of [ctx.get('Origin'), ctx.get('Referer')]) {
    if (!raw || raw === 'null') continue;
    try {
      return new URL(raw);
    } catch {
      /* not an address: try the next header */
    }
  }
  return undefined;
}

/**
 * Refuses (403) a widget call from a site outside the widget's allowed sites (docs/channels/widget.md
 * "Allowed sites"). An empty list allows any site. Balcão's own pages (the /widget test page, the settings
 * preview) are the server's own origin and always allowed. With a list set, a call naming no page at all
 * (no Origin nor Referer: not a browser on a site) is refused too.
 */
export function requireAllowedSite(ctx: Context, sites: readonly string[] | undefined): void {
  if (!sites?.length) return;
  const page = pageOf(ctx);
  if (page && (page.host === ctx.host || siteAllowed(page.hostname, sites))) return;
  throw errors.forbidden(SITE_NOT_ALLOWED);
}
