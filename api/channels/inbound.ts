import type { InboundDeps } from '../inbound/receiveInbound';
import type { ChannelDeps, ChannelRecord, ChannelType } from './adapter';

/**
 * The inbound half of the channel contract (DESIGN.md §7; the outbound half is `ChannelAdapter` in
 * adapter.ts). Every channel implements it in its own folder (`<type>/inbound.ts`): `verify` turns what the
 * provider sent (a webhook's signature, secret token or HMAC; an SMTP recipient; a visitor's token or
 * challenge; a socket's own events) into the channel it belongs to, or throws a typed error of
 * api/http/errors.ts (the hook's answer); `parse` turns a verified payload into normalised inbound events,
 * each handed to api/inbound/receiveInbound.ts (messages) or applied to the message it names (status,
 * reaction, echo, delete, edit); `status` is the channel's connection status (channelStatus.ts).
 */

/** What an inbound event is: the `kind` of an inbound_events row (api/models/InboundEvent.ts). */
export type InboundEventKind = 'message' | 'status' | 'reaction' | 'echo' | 'delete' | 'edit';

/**
 * One normalised inbound event: the kind, the provider's id of what it names (the message's external id,
 * the `(channel_id, external_id)` receiveInbound stores idempotently; for a status, reaction, delete or edit,
 * the message it applies to) and the provider's item it was parsed from (validated by the channel's schema).
 */
export interface ParsedEvent<Item = unknown, Channel = ChannelRecord> {
  kind: InboundEventKind;
  /** The channel it belongs to (a QR line's events name their line: its id and workspace). */
  channel: Channel;
  externalId: string | null;
  item: Item;
}

/** What the deps of an inbound half are: the pipeline's and the adapters'. */
export type InboundChannelDeps = InboundDeps & ChannelDeps;

/** A channel's connection status as stored by setChannelStatus (channelStatus.ts). */
export interface ChannelConnection {
  status: string;
  statusReason: string | null;
}

/** The connection status every channel reports: what setChannelStatus last stored for it. */
export async function storedConnection(deps: Pick<ChannelDeps, 'knex'>, channel: Pick<ChannelRecord, 'id' | 'workspaceId'>): Promise<ChannelConnection> {
  const row: { status: string; statusReason: string | null } | undefined = await deps.knex('channels').where({ id: channel.id, workspaceId: channel.workspaceId }).first('status', 'status_reason');
  return row ?? { status: 'disconnected', statusReason: null };
}

/**
 * The inbound half every channel has, over the request shape of its entry: `Request` is what verify
 * checks, `Verified` what it answers (the channel, or what the request carried with it), `Payload` what
 * parse reads (the verified request itself for a webhook; for e-mail the mail that came to a verified
 * recipient), `Item` the provider's item each event carries.
 */
export interface ChannelInbound<Request = unknown, Verified = unknown, Item = unknown, Payload = Verified, Channel = ChannelRecord, Deps = InboundChannelDeps> {
  type: ChannelType;
  /** The request's proof (signature, secret token, HMAC, SMTP recipient, visitor token) → the channel; a typed error otherwise. */
  verify(deps: Deps, request: Request): Promise<Verified>;
  /** A verified payload → its normalised events, in order; what the channel's schema refuses is left out (and logged). */
  parse(deps: Deps, payload: Payload): Promise<ParsedEvent<Item, Channel>[]>;
  status(deps: Pick<ChannelDeps, 'knex'>, channel: Pick<ChannelRecord, 'id' | 'workspaceId'>): Promise<ChannelConnection>;
}

/** A request to `/api/hooks/...` as the hooks router hands it to a channel (api/channels/hooks/router.ts). */
export interface HookRequest {
  /** The `:identifier` of `/api/hooks/:type/:identifier`; undefined on an app-level hook (`/api/hooks/whatsapp`). */
  identifier?: string;
  /** A request header (lower-case name), or undefined when absent or empty. */
  header(name: string): string | undefined;
  query: Record<string, unknown>;
  /** The raw body, at most `limit` bytes (raw-body's limit); throws when it cannot be read (too large, aborted). verify reads it when the proof covers it. */
  rawBody(limit: string): Promise<Buffer>;
}

/**
 * A verified webhook, ready to store: JSON only (it is what the hook store keeps and the sweep processes
 * again), with the channels it was verified for.
 */
export interface VerifiedHook<Payload = unknown> {
  channelIds: number[];
  payload: Payload;
  /** The channels of `channelIds` as verify found them (with their opened lines); not stored: processing from the store reads them again. */
  channels?: { channel: ChannelRecord; line: unknown }[];
  /** A body about nothing the channel handles (Meta's other objects): answered, neither stored nor processed. */
  skip?: boolean;
}

/** What the provider is answered: a JSON body (status 200). */
export type HookAnswer = Record<string, unknown>;

/**
 * The inbound half of a channel served by `/api/hooks/:type/:identifier` (api/channels/hooks/router.ts):
 * verify → store the raw event → answer → process. `answer`:
 * - `stored`: the verified body goes into the hook store (hooks/store.ts) and is answered at once; it is
 *   processed after the answer, and again by the sweep until it is (Meta, WhatsApp Cloud: media is
 *   downloaded after the answer);
 * - `processed`: the answer carries the outcome, so processing happens before it (custom: the stored
 *   message's ids; Telegram: a non-2xx makes Telegram redeliver the update); its events are stored
 *   idempotently by receiveInbound (inbound_events) on the way.
 */
export interface HookInbound<Payload = unknown, Item = unknown> extends ChannelInbound<HookRequest, VerifiedHook<Payload>, Item> {
  answer: 'stored' | 'processed';
  /** Whether `/api/hooks/<type>/:identifier` exists for this channel (Meta's channels have only the app-level `/api/hooks/meta`). */
  perChannel: boolean;
  /** The answer of a stored hook. */
  storedAnswer?: HookAnswer;
  /** The hook store's source of a `stored` hook (hooks/store.ts): which processor its rows go to. */
  source?: string;
  /** Handles the events of a verified body (parse first) and says what the provider is answered with (a `processed` hook). */
  process(deps: InboundChannelDeps, verified: VerifiedHook<Payload>): Promise<HookAnswer | void>;
  /** The verification handshake (`GET` with `hub.verify_token`), where the provider has one: the challenge to echo. */
  handshake?(deps: InboundChannelDeps, request: HookRequest): Promise<string>;
}

const inbounds = new Map<ChannelType, ChannelInbound>();

export function registerInbound<Request, Verified, Item, Payload, Channel, Deps>(inbound: ChannelInbound<Request, Verified, Item, Payload, Channel, Deps>): void {
  inbounds.set(inbound.type, inbound as unknown as ChannelInbound);
}

export function inboundFor(type: ChannelType): ChannelInbound | undefined {
  return inbounds.get(type);
}

/** The inbound half of a channel whose entry is `/api/hooks/:type/:identifier`, or undefined. */
export function hookInboundFor(type: string): HookInbound | undefined {
  const inbound = inbounds.get(type as ChannelType);
  return inbound && 'process' in inbound ? (inbound as unknown as HookInbound) : undefined;
}

/** Every registered inbound half served by `/api/hooks/...` (a webhook's), in registration order. */
export function hookInbounds(): HookInbound[] {
  return [...inbounds.values()].filter((inbound) => 'process' in inbound) as unknown as HookInbound[];
}
