/**
 * The inbox's JSON views (docs/api/inbox.md), in a module without run-time imports: the UI reads them
 * as its types (ui/src/inbox/types.ts), so the two cannot drift apart.
 */
import type { LastMessagePreview } from '../models/CustomerPlatform';
import type { MessageSender } from '../models/Message';

export interface TagView {
  id: number;
  name: string;
  color: string;
  textColor: string;
}

/** Conversation of docs/api/inbox.md. */
export interface ConversationView {
  id: number;
  callId: number | null;
  protocol: number | null;
  customerId: number;
  name: string;
  phone: string | null;
  email: string | null;
  avatar: string | null;
  platformId: number;
  workspacePlatformId: number;
  channelName: string;
  /** WhatsApp lines: 'qr' or 'cloud'; the inbox offers delete only where the line can (Cloud cannot). */
  channelProvider: string | null;
  operatorId: number | null;
  groupId: number | null;
  botId: number | null;
  /** The bot running the conversation (docs/bots.md). */
  botName: string | null;
  /** Admins (level 6+) on GET /inbox/conversations/:id: the running bot session in the Temporal Web UI. */
  temporalUrl: string | null;
  tags: TagView[];
  /** The kanban funnel stage the conversation is in (docs/kanban.md); kept across resolve and reopen. */
  stageId: number | null;
  isFinished: boolean;
  starred: boolean;
  hasNewMessages: boolean;
  lastMessage: LastMessagePreview | null;
  lastMessageAt: Date;
  identifier: string;
  createdAt: Date;
}

/** Message of docs/api/inbox.md. */
export interface MessageView {
  id: number;
  externalId: string | null;
  content: unknown[];
  text: string;
  type: number;
  status: number;
  createdAt: Date;
  operatorId: number | null;
  Operator: { id: number; name: string; avatar: string | null } | null;
  sender: MessageSender;
  avatar: string | null;
  isDeleted: boolean;
  isMedia: boolean;
  replyTo: { id: number; content: unknown[]; text: string; externalId: string | null } | null;
  callMessage: { callId: number };
  Call: { extraData: Record<string, unknown> } | null;
  customerPlatformId: number;
  /** Outbound delivery (docs/outbound.md): pending, sent or failed (the agent may retry); null off that path. */
  deliveryState: 'pending' | 'sent' | 'failed' | null;
  deliveryError: string | null;
}
