import type { AppDeps } from '../deps';
import { errors } from '../http/errors';
import type { ConversationViewer } from '../policy/conversations';
import { findVisibleConversation } from '../conversations/queries';
import type { InitBotReq } from './schema';

export const NO_BOT_AVAILABLE = 'Nenhum bot disponível.';

/** POST /calls/init-bot: bots come with their own issue; until then every start is refused, cleanly. */
export async function initBot(deps: Pick<AppDeps, 'knex'>, viewer: ConversationViewer, input: InitBotReq): Promise<never> {
  await findVisibleConversation(deps.knex, viewer, input.customerPlatformId);
  throw errors.badRequest(NO_BOT_AVAILABLE);
}
