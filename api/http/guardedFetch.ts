import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { LookupFunction } from 'node:net';

/**
 * The ONE HTTP client for user-supplied URLs (webhooks, plugins, bot integrations, custom channels;
 * DESIGN.md §3). It resolves the host itself, refuses every address that is not public unicast, and
 * connects to the address it vetted (a pinned `lookup`), so a DNS answer that changes between the check
 * and the connect (rebinding) cannot reach an internal service. Redirects are never followed: a 3xx goes
 * back to the caller.
 */

export interface GuardedOptions {
  timeoutMs: number;
  maxBytes: number;
  /** Tests only: allows http:// and loopback targets (and nothing else that is refused). */
  allowLoopbackForTests?: boolean;
}

export interface GuardedInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface GuardedResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export type GuardedErrorCode = 'invalid_url' | 'scheme' | 'blocked_address' | 'dns' | 'timeout' | 'too_large' | 'network';

export class GuardedFetchError extends Error {
  constructor(
    readonly code: GuardedErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'GuardedFetchError';
  }
}

const blockedV4 = new net.BlockList();
for (const [net4, prefix] of [
  ['0.0.0.0', 8], // "this network", incl. the unspecified address
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
] as const) {
  blockedV4.addSubnet(net4, prefix, 'ipv4');
}

const blockedV6 = new net.BlockList();
for (const [net6, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['::', 96], // IPv4-compatible (deprecated)
  ['64:ff9b::', 96], // NAT64: reaches whatever IPv4 is embedded
  ['64:ff9b:1::', 48],
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: embeds an IPv4 address
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  blockedV6.addSubnet(net6, prefix, 'ipv6');
}

const LOOPBACK_V4 = new net.BlockList();
LOOPBACK_V4.addSubnet('127.0.0.0', 8, 'ipv4');

/** The IPv4 address inside an IPv4-mapped IPv6 address (::ffff:a.b.c.d or ::ffff:7f00:1), if it is one. */
function unmapV4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower) ?? /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const hi = parseInt(hex[1], 16);
    const lo = parseInt(hex[2], 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return null;
}

function isLoopback(address: string): boolean {
  const v4 = net.isIPv4(address) ? address : unmapV4(address);
  if (v4) return LOOPBACK_V4.check(v4, 'ipv4');
  return address === '::1';
}

/**
 * OUTBOUND_ALLOWED_NETWORKS: comma-separated CIDRs (IPv4 or IPv6) an operator exempts from the guard, for
 * webhooks, plugins, bot integrations and custom channels on the company's own network. Empty (the default)
 * changes nothing. Throws, naming the entry, on anything that is not a CIDR.
 */
export function parseAllowedNetworks(spec: string | undefined): net.BlockList | null {
  const entries = (spec ?? '').split(',').map((e) => e.trim()).filter(Boolean);
  if (!entries.length) return null;
  const list = new net.BlockList();
  for (const entry of entries) {
    const m = /^([^/\s]+)\/(\d{1,3})$/.exec(entry);
    const family = m ? (net.isIPv4(m[1]) ? 'ipv4' : net.isIPv6(m[1]) ? 'ipv6' : null) : null;
    const prefix = m ? Number(m[2]) : NaN;
    if (!m || !family || prefix > (family === 'ipv4' ? 32 : 128)) throw new Error(`OUTBOUND_ALLOWED_NETWORKS: "${entry}" is not a CIDR such as 10.20.0.0/16 or fd00::/8`);
    list.addSubnet(m[1], prefix, family);
  }
  return list;
}

let allowed: { spec: string | undefined; list: net.BlockList | null } | undefined;

/** The operator's exempt networks, read from the environment once per value (api and worker alike). */
function allowedNetworks(): net.BlockList | null {
  const spec = process.env.OUTBOUND_ALLOWED_NETWORKS;
  if (!allowed || allowed.spec !== spec) allowed = { spec, list: parseAllowedNetworks(spec) };
  return allowed.list;
}

function isAllowedByOperator(address: string): boolean {
  const list = allowedNetworks();
  if (!list) return false;
  const v4 = net.isIPv4(address) ? address : unmapV4(address);
  if (v4) return list.check(v4, 'ipv4');
  return net.isIPv6(address) && list.check(address, 'ipv6');
}

/** Why an address may not be contacted, or null when it is public unicast (or in OUTBOUND_ALLOWED_NETWORKS). */
export function blockedReason(address: string, allowLoopback = false): string | null {
  if (allowLoopback && isLoopback(address)) return null;
  if (isAllowedByOperator(address)) return null;
  if (net.isIPv4(address)) return blockedV4.check(address, 'ipv4') ? `endereço ${address} não é público` : null;
  if (net.isIPv6(address)) {
    const v4 = unmapV4(address);
    if (v4 || address.toLowerCase().startsWith('::ffff:')) return `endereço ${address} não é público`;
    return blockedV6.check(address, 'ipv6') ? `endereço ${address} não é público` : null;
  }
  return `endereço ${address} inválido`;
}

/**
 * The host as the caller wrote it (before WHATWG URL turns `0x7f000001`, `2130706433`, `127.1` or `0177.0.0.1`
 * into 127.0.0.1): a numeric host in any form other than the canonical dotted quad is refused outright,
 * because it only exists to get past filters.
 */
function rawHost(input: string): string {
  const afterScheme = input.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  const authority = afterScheme.split(/[/?#]/, 1)[0];
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
  if (hostPort.startsWith('[')) return hostPort.slice(0, hostPort.indexOf(']') + 1);
  return hostPort.replace(/:\d*$/, '');
}

function isObfuscatedNumericHost(raw: string): boolean {
  const host = raw.toLowerCase().replace(/\.$/, '');
  if (host.startsWith('[')) return false;
  // WHATWG URL reads a host whose last label is numeric (decimal, octal or 0x hex) as IPv4.
  const labels = host.split('.');
  if (!/^(0x[0-9a-f]*|\d+)$/.test(labels[labels.length - 1])) return false;
  const canonical = labels.length === 4 && labels.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255);
  return !canonical;
}

interface ParsedTarget {
  url: URL;
  hostname: string;
}

function parseTarget(input: string, allowLoopback: boolean): ParsedTarget {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new GuardedFetchError('invalid_url', 'URL inválida');
  }
  if (url.protocol !== 'https:' && !(allowLoopback && url.protocol === 'http:')) {
    throw new GuardedFetchError('scheme', 'A URL deve começar com https://');
  }
  if (url.username || url.password) throw new GuardedFetchError('invalid_url', 'A URL não pode conter usuário e senha');
  if (isObfuscatedNumericHost(rawHost(input))) throw new GuardedFetchError('blocked_address', 'Endereço numérico não permitido');
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  if (!hostname) throw new GuardedFetchError('invalid_url', 'URL inválida');
  return { url, hostname };
}

interface Vetted {
  address: string;
  family: 4 | 6;
}

async function resolveVetted(target: ParsedTarget, allowLoopback: boolean): Promise<Vetted> {
  const { hostname, url } = target;
  let addresses: { address: string; family: number }[];
  if (net.isIP(hostname)) {
    addresses = [{ address: hostname, family: net.isIP(hostname) }];
  } else {
    try {
      addresses = await dns.promises.lookup(hostname, { all: true, verbatim: true });
    } catch (err) {
      throw new GuardedFetchError('dns', `Não foi possível resolver ${hostname} (${(err as NodeJS.ErrnoException).code ?? 'erro'})`);
    }
  }
  if (!addresses.length) throw new GuardedFetchError('dns', `Não foi possível resolver ${hostname}`);
  // Every answer must be acceptable: otherwise a name with one public and one private record could be
  // aimed at the private one by whatever picks among them.
  for (const a of addresses) {
    const reason = blockedReason(a.address, allowLoopback);
    if (reason) throw new GuardedFetchError('blocked_address', reason);
  }
  // Plain http is a test-only path, and then only to loopback.
  if (url.protocol === 'http:' && !addresses.every((a) => isLoopback(a.address))) {
    throw new GuardedFetchError('scheme', 'A URL deve começar com https://');
  }
  const first = addresses[0];
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** Checks a URL a user wants stored (webhook, plugin…): null when acceptable, else the pt-BR reason. */
export async function validateUserUrl(input: string, options: { allowLoopbackForTests?: boolean; resolveDns?: boolean } = {}): Promise<string | null> {
  const allowLoopback = options.allowLoopbackForTests === true;
  try {
    const target = parseTarget(input, allowLoopback);
    const host = target.hostname.toLowerCase().replace(/\.$/, '');
    if (!allowLoopback && (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.internal') || host.endsWith('.local'))) {
      return 'Endereço interno não permitido';
    }
    if (net.isIP(target.hostname)) {
      const reason = blockedReason(target.hostname, allowLoopback);
      if (reason) return 'Endereço interno não permitido';
      return null;
    }
    if (options.resolveDns === false) return null;
    try {
      await resolveVetted(target, allowLoopback);
    } catch (err) {
      // A name that does not resolve yet may be configured later; every delivery vets it again.
      if (err instanceof GuardedFetchError && err.code === 'dns') return null;
      throw err;
    }
    return null;
  } catch (err) {
    if (err instanceof GuardedFetchError) return err.code === 'blocked_address' ? 'Endereço interno não permitido' : err.message;
    throw err;
  }
}

/** A POST/GET to a user-supplied URL under the rules above. Rejects with GuardedFetchError. */
export async function guardedFetch(input: string, init: GuardedInit, options: GuardedOptions): Promise<GuardedResponse> {
  const allowLoopback = options.allowLoopbackForTests === true;
  const target = parseTarget(input, allowLoopback);
  const deadline = Date.now() + options.timeoutMs;
  const vetted = await withTimeout(resolveVetted(target, allowLoopback), options.timeoutMs);

  // The socket connects to the vetted address whatever the resolver would answer now; TLS still checks
  // the certificate against the host name (servername stays the name).
  const pinned: LookupFunction = (_host, opts, cb) => {
    if ((opts as { all?: boolean }).all) (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: vetted.address, family: vetted.family }]);
    else cb(null, vetted.address, vetted.family);
  };

  const mod = target.url.protocol === 'https:' ? https : http;
  const body = init.body === undefined ? undefined : Buffer.isBuffer(init.body) ? init.body : Buffer.from(init.body);
  const headers: Record<string, string | number> = { ...(init.headers ?? {}) };
  if (body) headers['content-length'] = body.length;

  return new Promise<GuardedResponse>((resolve, reject) => {
    const remaining = Math.max(1, deadline - Date.now());
    const req = mod.request(
      target.url,
      { method: init.method ?? 'GET', headers, lookup: pinned, agent: false, timeout: remaining },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            reject(new GuardedFetchError('too_large', `Resposta maior que ${options.maxBytes} bytes`));
            req.destroy();
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', (err) => reject(wrap(err)));
      },
    );
    const timer = setTimeout(() => req.destroy(new GuardedFetchError('timeout', `Sem resposta em ${options.timeoutMs} ms`)), remaining);
    req.on('close', () => clearTimeout(timer));
    req.on('timeout', () => req.destroy(new GuardedFetchError('timeout', `Sem resposta em ${options.timeoutMs} ms`)));
    req.on('error', (err) => reject(wrap(err)));
    req.end(body);
  });
}

function wrap(err: Error): GuardedFetchError {
  return err instanceof GuardedFetchError ? err : new GuardedFetchError('network', err.message);
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new GuardedFetchError('timeout', `Sem resposta em ${ms} ms`)), ms);
    }),
  ]);
}
