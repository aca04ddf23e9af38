import type { AppDeps } from '../../deps';
import { errors } from '../../http/errors';
import { Channel, PLATFORM_IDS } from '../../models/Channel';
import { authorize, type Actor } from '../../policy/policy';
import { presentChannel } from '../presentChannel';
import { deleteChannel } from '../deleteChannel';
import { sealSecret } from '../secretBox';
import { setChannelStatus } from '../channelStatus';
import { topics } from '../../realtime/publisher';
import { listPages, subscribePage, unsubscribePage, type GraphPage } from '../meta/client';
import { connectError } from '../meta/connectErrors';
import { openLoginSession } from '../meta/oauth';
import { copyPicture, copyPictures } from '../meta/pictures';
import { facebookIdentifier, isPageLineConfig, pageLineOf, type PageLineConfig } from '../meta/pageLine';
import type { FacebookPageConnectReq } from './schema';
import type { ChannelChange } from '../settings';

type Deps = Pick<AppDeps, 'knex' | 'config' | 'logger' | 'publisher'>;

/** A Facebook page channel as the settings see it; the page token never leaves. */
export function presentFacebookChannel(row: Channel) {
  const config = row.config ?? {};
  return { ...presentChannel(row), pageId: isPageLineConfig(config) ? config.pageId : null };
}

/**
 * How many pages of one listing get their picture copied (docs/channels/meta.md "Pictures"); a user with
 * more pages sees the letter avatar on the rest.
 */
export const CHOOSER_PICTURES = 50;

/**
 * The pages the logged-in Facebook user manages, for the page chooser: no tokens, whether each is
 * connected here, and its picture copied into this workspace's avatars (Meta's URL would be blocked by our
 * CSP; api/channels/meta/pictures.ts).
 */
export async function listLoginPages(deps: Deps, actor: Actor, session: string) {
  authorize(actor, 'channels.manage');
  const userToken = openLoginSession(deps.config, actor, session);
  let pages: GraphPage[];
  try {
    pages = await listPages(deps.config, userToken);
  } catch (err) {
    throw connectError(err);
  }
  const connected = new Set<string>(
    (await deps.knex('channels').where({ workspaceId: actor.workspaceId, type: 'facebook' }).pluck('identifier')) as string[],
  );
  const pictures = await copyPictures(deps, actor.workspaceId, pages.slice(0, CHOOSER_PICTURES).map((p) => p.picture?.data?.url));
  return pages.map((p, i) => ({
    id: p.id,
    name: p.name,
    picture: pictures[i] ?? null,
    connected: connected.has(facebookIdentifier(p.id)),
    instagram: p.instagram_business_account ? { id: p.instagram_business_account.id, username: p.instagram_business_account.username ?? null } : null,
  }));
}

/**
 * POST /integrations/facebook (docs/channels/meta.md): the chosen page is read again from Meta with the
 * login session (so its token never crosses the browser), the app is subscribed to its messaging fields,
 * and the channel is saved with the page token sealed. Connecting a page this workspace already has
 * refreshes its token and reconnects it (and its Instagram channel). A page connected by another workspace
 * is refused: Meta's webhook names the page, so one page feeds one workspace.
 */
export async function connectFacebookPage(deps: Deps, actor: Actor, input: FacebookPageConnectReq): Promise<{ channel: Channel; created: boolean }> {
  authorize(actor, 'channels.manage');
  const userToken = openLoginSession(deps.config, actor, input.session);
  let page: GraphPage | undefined;
  try {
    page = (await listPages(deps.config, userToken)).find((p) => p.id === input.pageId);
  } catch (err) {
    throw connectError(err);
  }
  if (!page) throw errors.field('pageId', 'Esta página não está entre as páginas que você administra no Facebook.');
  const identifier = facebookIdentifier(page.id);
  const existing = await deps.knex('channels').where({ identifier }).first('id', 'workspace_id');
  if (existing && existing.workspaceId !== actor.workspaceId) throw errors.conflict('Esta página já está conectada a outro workspace.', 'pageId');
  try {
    await subscribePage(deps.config, page.id, page.access_token);
  } catch (err) {
    throw connectError(err);
  }
  const pageTokenSealed = sealSecret(deps.config, page.access_token);
  const config: PageLineConfig = { pageId: page.id, pageName: page.name, pageTokenSealed };
  const avatar = await copyPicture(deps, actor.workspaceId, page.picture?.data?.url);
  const fields = { name: page.name.slice(0, 120), description: page.name.slice(0, 255), avatar, status: 'connected', config: { ...config } as Record<string, unknown> };
  const channel = await Channel.transaction(deps.knex, async (trx) => {
    // The workspace's Instagram channels of this page run on the same token.
    await trx('channels')
      .where({ workspaceId: actor.workspaceId, type: 'instagram' })
      .whereRaw("config->>'pageId' = ?", [page.id])
      .update({ config: trx.raw("jsonb_set(config, '{pageTokenSealed}', to_jsonb(?::text))", [pageTokenSealed]), updatedAt: trx.fn.now() });
    if (existing) return Channel.query(trx).patchAndFetchById(existing.id, fields);
    return Channel.query(trx).insertAndFetch({ workspaceId: actor.workspaceId, platformId: PLATFORM_IDS.facebook, type: 'facebook', identifier, ...fields });
  });
  if (existing) await deps.publisher.publish(topics.workspace(actor.workspaceId), 'channel.status', { id: channel.id, status: 'connected' }).catch(() => undefined);
  const igChannels = await deps.knex('channels').where({ workspaceId: actor.workspaceId, type: 'instagram' }).whereRaw("config->>'pageId' = ?", [page.id]).select('id', 'workspace_id');
  for (const ig of igChannels) await setChannelStatus(deps, ig, 'connected');
  return { channel, created: !existing };
}

/**
 * Unsubscribes the app from a page once no channel (Facebook or Instagram, in any workspace) uses it any
 * more. The channel goes either way: a page still subscribed only reaches us with entries we drop.
 */
export async function unsubscribeIfUnused(deps: Deps, pageId: string, pageToken: string): Promise<boolean> {
  const still = await deps.knex('channels').whereIn('type', ['facebook', 'instagram']).whereRaw("config->>'pageId' = ?", [pageId]).first('id');
  if (still) return false;
  try {
    await unsubscribePage(deps.config, pageId, pageToken);
    return true;
  } catch (err) {
    deps.logger.warn({ err, pageId }, 'meta unsubscribe failed');
    return false;
  }
}

/** DELETE /integrations/facebook/:id. */
export async function deleteFacebookChannel(deps: Deps, actor: Actor, id: number): Promise<ChannelChange> {
  const row = await deleteChannel(deps, actor, 'facebook', id);
  const line = pageLineOf(deps.config, { config: row.config ?? {} });
  const unsubscribed = line ? await unsubscribeIfUnused(deps, line.pageId, line.pageToken) : false;
  return { channel: row, extra: { unsubscribed } };
}
