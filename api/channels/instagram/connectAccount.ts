import type { AppDeps } from '../../deps';
import { errors } from '../../http/errors';
import { Channel, PLATFORM_IDS } from '../../models/Channel';
import { authorize, type Actor } from '../../policy/policy';
import { presentChannel } from '../presentChannel';
import { deleteChannel } from '../deleteChannel';
import { setChannelStatus } from '../channelStatus';
import { GraphCallError, pageInstagramAccount, subscribePage } from '../meta/client';
import { connectError } from '../meta/connectErrors';
import { copyPicture } from '../meta/pictures';
import { isGraphAuthError } from '../meta/graphErrors';
import { instagramIdentifier, isPageLineConfig, pageLineOf, type PageLineConfig } from '../meta/pageLine';
import { unsubscribeIfUnused } from '../facebook/connectPage';
import type { InstagramAccountView, InstagramConnectReq } from './schema';
import type { ChannelChange } from '../settings';

type Deps = Pick<AppDeps, 'knex' | 'config' | 'logger' | 'publisher'>;

export function presentInstagramChannel(row: Channel) {
  const config = row.config ?? {};
  return {
    ...presentChannel(row),
    pageId: isPageLineConfig(config) ? config.pageId : null,
    instagramAccountId: isPageLineConfig(config) ? (config.instagramAccountId ?? null) : null,
    username: isPageLineConfig(config) ? (config.username ?? null) : null,
  };
}

/**
 * The Instagram professional accounts linked to the pages this workspace connected, asked of Meta with
 * each page's token, each picture copied into this workspace's avatars (api/channels/meta/pictures.ts). A
 * page whose token Meta refuses is marked disconnected (the banner shows) and skipped.
 */
export async function listInstagramAccounts(deps: Deps, actor: Actor): Promise<{ accounts: InstagramAccountView[]; sealedTokens: Map<string, string> }> {
  authorize(actor, 'channels.manage');
  const pages = await Channel.query(deps.knex).where({ workspaceId: actor.workspaceId, type: 'facebook' }).orderBy('id');
  const connected = new Set<string>((await deps.knex('channels').where({ workspaceId: actor.workspaceId, type: 'instagram' }).pluck('identifier')) as string[]);
  const accounts: InstagramAccountView[] = [];
  const sealedTokens = new Map<string, string>();
  for (const page of pages) {
    const line = pageLineOf(deps.config, page);
    if (!line || !isPageLineConfig(page.config)) continue;
    try {
      const ig = await pageInstagramAccount(deps.config, line.pageId, line.pageToken);
      if (!ig) continue;
      sealedTokens.set(ig.id, page.config.pageTokenSealed);
      accounts.push({
        id: ig.id,
        username: ig.username ?? null,
        name: ig.name ?? null,
        picture: await copyPicture(deps, actor.workspaceId, ig.profile_picture_url),
        pageId: line.pageId,
        pageName: page.name,
        connected: connected.has(instagramIdentifier(ig.id)),
      });
    } catch (err) {
      if (err instanceof GraphCallError && isGraphAuthError(err.status, err.error)) await setChannelStatus(deps, page, 'disconnected');
      else deps.logger.warn({ err, channelId: page.id }, 'instagram account of page not read');
    }
  }
  return { accounts, sealedTokens };
}

/**
 * POST /integrations/instagram: the account must be linked to one of this workspace's pages; its channel
 * keeps that page's token (sealed) and the page's subscription is renewed. Connecting it again updates it.
 */
export async function connectInstagramAccount(deps: Deps, actor: Actor, input: InstagramConnectReq): Promise<{ channel: Channel; created: boolean }> {
  const { accounts, sealedTokens } = await listInstagramAccounts(deps, actor);
  const account = accounts.find((a) => a.id === input.instagramAccountId);
  const pageTokenSealed = sealedTokens.get(input.instagramAccountId);
  if (!account || !pageTokenSealed) throw errors.field('instagramAccountId', 'Esta conta do Instagram não está ligada a nenhuma página conectada. Conecte a página no Facebook primeiro.');
  const identifier = instagramIdentifier(account.id);
  const existing = await deps.knex('channels').where({ identifier }).first('id', 'workspace_id');
  if (existing && existing.workspaceId !== actor.workspaceId) throw errors.conflict('Esta conta do Instagram já está conectada a outro workspace.', 'instagramAccountId');
  const page = await Channel.query(deps.knex).where({ workspaceId: actor.workspaceId, type: 'facebook' }).whereRaw("config->>'pageId' = ?", [account.pageId]).first();
  const line = page ? pageLineOf(deps.config, page) : undefined;
  if (line) {
    try {
      await subscribePage(deps.config, line.pageId, line.pageToken);
    } catch (err) {
      throw connectError(err);
    }
  }
  const config: PageLineConfig = { pageId: account.pageId, pageName: account.pageName, pageTokenSealed, instagramAccountId: account.id, username: account.username };
  const label = account.username ? `@${account.username}` : (account.name ?? account.id);
  const fields = {
    name: label.slice(0, 120),
    description: label.slice(0, 255),
    avatar: account.picture,
    status: 'connected',
    config: { ...config } as Record<string, unknown>,
  };
  const channel = existing
    ? await Channel.query(deps.knex).patchAndFetchById(existing.id, fields)
    : await Channel.query(deps.knex).insertAndFetch({ workspaceId: actor.workspaceId, platformId: PLATFORM_IDS.instagram, type: 'instagram', identifier, ...fields });
  return { channel, created: !existing };
}

/** DELETE /integrations/instagram/:id; the page is unsubscribed only when nothing else uses it. */
export async function deleteInstagramChannel(deps: Deps, actor: Actor, id: number): Promise<ChannelChange> {
  const row = await deleteChannel(deps, actor, 'instagram', id);
  const line = pageLineOf(deps.config, { config: row.config ?? {} });
  const unsubscribed = line ? await unsubscribeIfUnused(deps, line.pageId, line.pageToken) : false;
  return { channel: row, extra: { unsubscribed } };
}
