/**
 * Plugin endpoint rules (SPEC §5 "Plugin endpoint HTTPS"). Shared by the API schema and the UI form, so
 * this file imports nothing. The host check is literal (IP literals and reserved names); a DNS-resolving
 * check belongs to the guarded HTTP client, which is what must be used if the server ever fetches it.
 */

let loopbackAllowed = false;

/**
 * Tests serve plugin pages from a loopback http server. Only test code calls this (docs/plugins.md);
 * nothing in the app or its configuration can turn it on.
 */
export function allowLoopbackPluginsForTests(allowed: boolean): void {
  loopbackAllowed = allowed;
}

export function loopbackAllowedForTests(): boolean {
  return loopbackAllowed;
}

function ipv4Parts(host: string): number[] | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  return parts.every((p) => p <= 255) ? parts : undefined;
}

function isPrivateIpv4([a, b]: number[]): boolean {
  return (
    a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127) || (a === 198 && (b === 18 || b === 19)) || a >= 224
  );
}

function isPrivateIpv6(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === '::' || h === '::1') return true;
  // IPv4-mapped (::ffff:a.b.c.d, which URL normalises to ::ffff:xxxx:xxxx)
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(h);
  if (mapped) {
    const hi = parseInt(mapped[1], 16);
    const lo = parseInt(mapped[2], 16);
    return isPrivateIpv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);
  }
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
  if (dotted) return isPrivateIpv4(ipv4Parts(dotted[1]) ?? [0]);
  return /^f[cd]/.test(h) || /^fe[89ab]/.test(h) || h.startsWith('::ffff:');
}

function isLoopback(host: string): boolean {
  const v4 = ipv4Parts(host);
  return host === 'localhost' || host === '[::1]' || (v4 !== undefined && v4[0] === 127);
}

/** True for hosts that name this machine or a private network by their literal form. */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (!host) return true;
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal')) return true;
  const v4 = ipv4Parts(host);
  if (v4) return isPrivateIpv4(v4);
  if (host.includes(':')) return isPrivateIpv6(host);
  // A single label ("intranet") only resolves inside a private network.
  return !host.includes('.');
}

/**
 * A page the product serves itself (ui/public/plugins/, e.g. the demo's '/plugins/exemplo-pedidos.html'):
 * a path, loaded from the app's own address in the same sandboxed, opaque-origin frame as any plugin.
 */
export const BUILT_IN_PLUGIN = /^\/plugins\/[a-z0-9][a-z0-9-]{0,60}\.html$/;

/** The endpoint as an absolute URL: a built-in page is resolved against the app's address. */
export function pluginUrl(endpoint: string, appOrigin: string): URL {
  return new URL(endpoint, appOrigin);
}

/** The pt-BR reason an endpoint is refused, or undefined when it is acceptable. */
export function pluginEndpointProblem(value: string): string | undefined {
  if (BUILT_IN_PLUGIN.test(value)) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'Informe uma URL válida começando com https://.';
  }
  const loopbackHttp = loopbackAllowed && url.protocol === 'http:' && isLoopback(url.hostname);
  if (url.protocol !== 'https:' && !loopbackHttp) return 'O endpoint do plugin deve usar HTTPS.';
  if (url.username || url.password) return 'O endpoint não pode conter usuário ou senha.';
  if (isPrivateHost(url.hostname) && !(loopbackAllowed && isLoopback(url.hostname))) return 'O endpoint não pode apontar para um endereço local ou privado.';
  return undefined;
}
