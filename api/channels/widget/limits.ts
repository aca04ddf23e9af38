import { isIPv4, isIPv6 } from 'node:net';
import type { Context } from 'koa';
import type { AppDeps } from '../../deps';
import { errors, type AppError } from '../../http/errors';
import { clientIp } from '../../http/clientIp';
import type { RateRule } from '../../http/rateLimit';
import { checkSolution, issueChallenge, CHALLENGE_TTL_MS } from './challenge';

const MINUTE = 60_000;

/**
 * Rate limits of the public widget API (DESIGN.md §3 "widget conversation creation", docs/widget.md
 * "Limits"). Every window is a sliding window of minutes, so nothing an outsider does locks anyone out
 * for long. First contacts create a visitor, a contact and a conversation: they are held per source
 * (the address, and its /24 or /64, where one client's addresses usually sit together). Past a source's
 * free bound (`ip`, `range`) a new visitor is not refused but asked for the proof-of-work challenge
 * (challenge.ts): many real people share one address behind a carrier-grade NAT (Brazilian mobile
 * carriers put thousands of customers behind one IPv4 address). Only past the much higher hard bound
 * (`ipHard`, `rangeHard`, first contacts let in) is a source refused outright. The channel has no cap an
 * outsider could exhaust either: past `channelFree` first contacts in the window it is under a burst,
 * and new visitors then pass by solving the same challenge. Visitors with a token are counted per
 * visitor and never meet the challenge.
 */
export const WIDGET_LIMITS = {
  firstContact: {
    // Free: first contacts of one source without a challenge (every request without a solution counts).
    ip: { limit: 10, windowMs: 10 * MINUTE },
    range: { limit: 30, windowMs: 10 * MINUTE },
    // Hard: first contacts of one source let in (with or without a solution); past it, a refusal.
    ipHard: { limit: 300, windowMs: 10 * MINUTE },
    rangeHard: { limit: 1000, windowMs: 10 * MINUTE },
    channelFree: { limit: 60, windowMs: 5 * MINUTE },
  },
  message: { visitor: { limit: 30, windowMs: MINUTE } },
  file: { visitor: { limit: 10, windowMs: 10 * MINUTE } },
  // Every page view of a site with the widget asks for the config, so it gets more room than message reads.
  config: { ip: { limit: 600, windowMs: MINUTE } },
  read: { ip: { limit: 120, windowMs: MINUTE } },
} as const;

/** The response header that carries a challenge (exposed to the widget by cors.ts). */
export const CHALLENGE_HEADER = 'Balcao-Challenge';

/**
 * The network a client address belongs to: its /24 for IPv4 (IPv4-mapped IPv6 included), its /64 for
 * IPv6 (one subscriber's usual allocation). Anything else is its own range.
 */
export function sourceRange(address: string): string {
  const ip = address.replace(/%.*$/, '').toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip)?.[1];
  const v4 = mapped ?? (isIPv4(ip) ? ip : undefined);
  if (v4 && isIPv4(v4)) return `${v4.split('.').slice(0, 3).join('.')}.0/24`;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail] = ip.split('::');
  const groups = (part: string) =>
    part
      .split(':')
      .filter(Boolean)
      .flatMap((g) => {
        if (!g.includes('.')) return [g];
        const [a, b, c, d] = g.split('.').map(Number) as [number, number, number, number];
        return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
      });
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${all
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

export interface ChallengeSolution {
  token: string;
  counter: string;
}

const CHALLENGE_TEXTS = {
  network: 'Muitas conversas novas a partir da sua rede agora. Seu navegador precisa concluir uma verificação rápida antes de enviar.',
  burst: 'Muitas conversas novas neste canal agora. Seu navegador precisa concluir uma verificação rápida antes de enviar.',
  invalid: 'A verificação de segurança é inválida. Conclua a nova verificação e envie de novo.',
  expired: 'A verificação de segurança expirou. Conclua a nova verificação e envie de novo.',
  reused: 'A verificação de segurança já foi usada. Conclua a nova verificação e envie de novo.',
} as const;

/**
 * 429 carrying a fresh challenge in the Balcao-Challenge header. Retry-After says when first contacts
 * pass without one again (the channel's burst, or the source's free bound for `network`): a client that
 * cannot solve it waits that long, minutes at most.
 */
async function challengeRequired(deps: AppDeps, channelId: number, reason: keyof typeof CHALLENGE_TEXTS, wait?: number): Promise<AppError> {
  const retryAfter = Math.max(1, wait ?? (await deps.rateLimiter.wait([channelFreeRule(channelId)])));
  return errors.rateLimit(
    retryAfter,
    { title: 'Verificação necessária', key: 'challenge', description: CHALLENGE_TEXTS[reason] },
    { [CHALLENGE_HEADER]: issueChallenge(deps.config, channelId) },
  );
}

/** How many first contacts a channel takes without a challenge (exported for tests that start a burst). */
export function channelFreeRule(channelId: number): RateRule {
  return { key: `widget:first:channel:${channelId}`, ...WIDGET_LIMITS.firstContact.channelFree };
}

/**
 * The rules one source's first contacts are counted in: `free` (past it, a challenge) and `hard` (past
 * it, a refusal). Exported for tests that fill them.
 */
export function sourceRules(ip: string): { free: RateRule[]; hard: RateRule[] } {
  const { ip: perIp, range, ipHard, rangeHard } = WIDGET_LIMITS.firstContact;
  const net = sourceRange(ip);
  return {
    free: [
      { key: `widget:first:ip:${ip}`, ...perIp },
      { key: `widget:first:range:${net}`, ...range },
    ],
    hard: [
      { key: `widget:first:ip-hard:${ip}`, ...ipHard },
      { key: `widget:first:range-hard:${net}`, ...rangeHard },
    ],
  };
}

function sourceRefused(wait: number): AppError {
  return errors.rateLimit(wait, { description: `Muitas conversas novas a partir da sua rede. Tente novamente em ${wait} segundos.` });
}

/**
 * Lets a first contact (no visitor token) through or throws: 429 with Retry-After when its source is
 * over its hard bound; 429 with a challenge when its source is over its free bound or the channel is
 * under a burst and no valid solution came, or when a solution came that is forged, expired or already
 * used. Every first contact let in counts toward its source's hard bound.
 */
export async function admitFirstContact(deps: AppDeps, ip: string, channelId: number, solution?: ChallengeSolution): Promise<void> {
  const { free, hard } = sourceRules(ip);
  const hardWait = await deps.rateLimiter.wait(hard);
  if (hardWait > 0) throw sourceRefused(hardWait);

  if (solution) {
    const check = checkSolution(deps.config, channelId, solution.token, solution.counter);
    if (!check.ok) throw await challengeRequired(deps, channelId, check.reason);
    // Spent until it expires: one solution, one first contact (in the shared store, on every node at once).
    const spent = await deps.rateLimiter.take([{ key: `widget:challenge:spent:${check.nonce}`, limit: 1, windowMs: CHALLENGE_TTL_MS + MINUTE }]);
    if (spent > 0) throw await challengeRequired(deps, channelId, 'reused');
  } else {
    // Many people may share this address (carrier-grade NAT): over the free bound they prove work instead.
    const sourceWait = await deps.rateLimiter.take(free);
    if (sourceWait > 0) throw await challengeRequired(deps, channelId, 'network', sourceWait);
    if ((await deps.rateLimiter.take([channelFreeRule(channelId)])) > 0) throw await challengeRequired(deps, channelId, 'burst');
  }
  // Counted once let in. First contacts checked at the same moment may both pass the check above and
  // overshoot the hard bound by how many ran together: it is a refusal threshold far above any real source.
  await deps.rateLimiter.take(hard);
}

export async function limitVisitor(deps: AppDeps, kind: 'message' | 'file', visitorId: string): Promise<void> {
  const { limit, windowMs } = WIDGET_LIMITS[kind].visitor;
  await deps.rateLimiter.hit(`widget:${kind}:visitor:${visitorId}`, limit, windowMs);
}

/** Config and message reads: cheap, but public, so bounded per address. */
export async function limitRead(deps: AppDeps, ctx: Context, kind: 'config' | 'read'): Promise<void> {
  const { limit, windowMs } = WIDGET_LIMITS[kind].ip;
  await deps.rateLimiter.hit(`widget:${kind}:ip:${clientIp(ctx, deps.config.trustProxy)}`, limit, windowMs);
}
