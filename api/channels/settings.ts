import type Router from '@koa/router';
import type { z } from 'zod';
import type { AppDeps } from '../deps';
import type { Config } from '../config';
import type { Channel, ChannelType } from '../models/Channel';
import type { Actor } from '../policy/policy';

/**
 * What a create or a remove answers besides the channel itself: `created` false when an existing channel
 * was taken up again (200 instead of 201, Facebook and Instagram), `extra` keys shown once beside the
 * presented channel (the custom channel's secret, whether a Meta page was unsubscribed).
 */
export interface ChannelChange {
  channel: Channel;
  created?: boolean;
  extra?: Record<string, unknown>;
}

/**
 * The settings half of a channel (docs/architecture.md "Channels"): one record per type in
 * `<type>/settings.ts`, served by api/channels/integrationsRouter.ts as
 * `/integrations/<segment>` (POST create, GET list where `list` is set) and
 * `/integrations/<segment>/:id` (GET, PUT where `update` is set, DELETE where `remove` is set), every
 * route level 6+ (`channels.manage`). `routes` adds the channel's own extra routes to the same router
 * (paths under `/integrations`), registered before the CRUD so a fixed segment (`/facebook/oauth`) is not
 * read as an id.
 */
export interface ChannelSettings<C = never, U = never> {
  type: ChannelType;
  /** The URL segment after /integrations/ (`mail` for the e-mail channel; the other types use their name). */
  segment: string;
  /** The 404 description when the id is not a channel of this type in the caller's workspace. */
  notFound?: string;
  /** GET /integrations/<segment>: every channel of this type in the workspace (Facebook's page list). */
  list?: boolean;
  /** The channel as the settings screen sees it; secrets never. */
  present(channel: Channel, config: Config): object;
  create: { schema: z.ZodType<C>; run(deps: AppDeps, actor: Actor, input: C): Promise<Channel | ChannelChange> };
  update?: { schema: z.ZodType<U>; run(deps: AppDeps, actor: Actor, id: number, input: U): Promise<Channel> };
  remove?: (deps: AppDeps, actor: Actor, id: number) => Promise<Channel | ChannelChange>;
  routes?: (router: Router, deps: AppDeps) => void;
}

/** The record with its input types erased, so the seven can sit in one list. */
export type AnyChannelSettings = ChannelSettings<unknown, unknown>;

/** Types a channel's record against its own schemas, then erases them for the registry. */
export function channelSettings<C, U = never>(settings: ChannelSettings<C, U>): AnyChannelSettings {
  return settings as unknown as AnyChannelSettings;
}
