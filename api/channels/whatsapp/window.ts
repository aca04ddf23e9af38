import type { AppDeps } from '../../deps';
import type { ChannelRecord } from '../adapter';
import { cloudLineOf } from './cloudLine';

/** WhatsApp's customer-service window: free text only within 24 h of the customer's last message. */
export const WINDOW_MS = 24 * 60 * 60 * 1000;

export interface WhatsappWindow {
  /** A Cloud API line: outside the window only approved templates go out. */
  cloud: boolean;
  open: boolean;
  lastCustomerMessageAt: string | null;
  closesAt: string | null;
}

/** The window of a conversation: open while the customer's last message is less than 24 h old. */
export async function whatsappWindow(deps: Pick<AppDeps, 'knex' | 'config'>, conversationId: number, channel: Pick<ChannelRecord, 'config' | 'type'>, now = Date.now()): Promise<WhatsappWindow> {
  const cloud = channel.type === 'whatsapp' && !!cloudLineOf(deps.config, channel);
  const last = (await deps.knex('messages').where({ customerPlatformId: conversationId, sender: 'customer' }).orderBy('createdAt', 'desc').first('created_at')) as { createdAt: Date } | undefined;
  const lastAt = last ? new Date(last.createdAt).getTime() : null;
  const open = !cloud || (lastAt !== null && now - lastAt < WINDOW_MS);
  return {
    cloud,
    open,
    lastCustomerMessageAt: lastAt === null ? null : new Date(lastAt).toISOString(),
    closesAt: lastAt === null ? null : new Date(lastAt + WINDOW_MS).toISOString(),
  };
}
