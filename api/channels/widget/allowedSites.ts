/**
 * The sites a widget may run on (docs/channels/widget.md "Allowed sites"). Shared by the API (the Origin or
 * Referer of every widget call), the settings form's schema and widget.js (the page's own address), so this
 * file imports nothing.
 *
 * An entry is a host name: `loja.com.br` allows that host and every subdomain of it (`www.loja.com.br`,
 * `m.loja.com.br`); a pasted address (`https://www.loja.com.br/contato`) or a leading `*.` is reduced to its
 * host. An empty list allows every site.
 */
export const MAX_ALLOWED_SITES = 20;

const HOST = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** The host of an entry as typed (lowercase, no scheme, path, port or `*.`), or undefined when it is not one. */
export function normalizeSite(entry: string): string | undefined {
  const host = entry
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/[/?#].*$/, '')
    .replace(/:\d*$/, '')
    .replace(/^\*\./, '')
    .replace(/\.$/, '');
  return HOST.test(host) ? host : undefined;
}

/** True when `host` (a page's host name) is one of `sites` or a subdomain of one; any host when the list is empty. */
export function siteAllowed(host: string, sites: readonly string[] | undefined): boolean {
  if (!sites || sites.length === 0) return true;
  const h = host.toLowerCase().replace(/\.$/, '');
  return sites.some((s) => h === s || h.endsWith(`.${s}`));
}
