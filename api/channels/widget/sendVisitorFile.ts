import type { Context } from 'koa';
import type { AppDeps } from '../../deps';
import { receiveUploads } from '../../assets/receiveUploads';
import type { FileStorage } from '../../storage/storage';
import type { WidgetMessage } from './presentWidgetMessage';
import { limitVisitor } from './limits';
import { storeVisitorMessage } from './sendVisitorMessage';
import type { VisitorSession } from '../../auth/visitorSessions';

/**
 * POST /v1/widget/files: one multipart field `file` (16 MB, type checked by its bytes in api/assets),
 * stored like an agent's upload within the visitor's, channel's and workspace's storage budgets
 * (api/assets/storageBudgets.ts), then sent as a file message of the visitor's conversation.
 */
export async function sendVisitorFile(
  deps: AppDeps,
  storage: FileStorage,
  ctx: Context,
  visitor: VisitorSession,
): Promise<{ message: WidgetMessage }> {
  await limitVisitor(deps, 'file', visitor.visitorId);
  const [file] = await receiveUploads({ knex: deps.knex, storage }, ctx.req, {
    workspaceId: visitor.workspaceId,
    operatorId: null,
    visitor: { channelId: visitor.channelId, visitorId: visitor.visitorId },
    fieldPattern: /^file$/,
    maxFiles: 1,
  });
  const content = [{ file: { key: file!.key, fileName: file!.fileName, mime: file!.mime, size: file!.size } }];
  return { message: await storeVisitorMessage(deps, visitor, { content }) };
}
