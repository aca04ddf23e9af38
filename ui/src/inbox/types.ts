/** Shapes of docs/api/inbox.md as the UI reads them (the api's presenter types where it has them). */
import type { ConversationView, TagView } from '../../../api/conversations/views';
import type { LastMessagePreview } from '../../../api/models/CustomerPlatform';
import type { Wire } from '../providers/wire';

export type Tag = TagView;

/** The list preview of the last message. */
export type LastMessage = Wire<LastMessagePreview>;

/** Fields added to the Conversation view after the first inbox; conversations built without them are still read. */
type LaterConversationFields = 'channelProvider' | 'botName' | 'temporalUrl' | 'stageId';

export type Conversation = Wire<Omit<ConversationView, LaterConversationFields> & Partial<Pick<ConversationView, LaterConversationFields>>>;

/** A file entry of a message: `{file: {...}}` in the API; the bare shape is read too. */
export interface FileEntry {
  key: string;
  fileName: string;
  mime: string;
  size: number;
  url?: string;
}

export type ContentItem = { insert: string | Record<string, unknown>; attributes?: Record<string, unknown> } | { file: FileEntry } | FileEntry;

export type Sender = 'customer' | 'operator' | 'system' | 'bot';

export interface Message {
  id: number;
  externalId: string | null;
  content: ContentItem[];
  text: string;
  type: number;
  status: number;
  createdAt: string;
  operatorId: number | null;
  Operator: { id: number; name: string; avatar: string | null } | null;
  sender: Sender;
  avatar: string | null;
  isDeleted: boolean;
  isMedia: boolean;
  replyTo: { id: number; content: ContentItem[]; text: string; externalId: string | null } | null;
  callMessage?: { callId: number } | null;
  Call?: {
    extraData?: {
      subject?: string;
      from?: string;
      to?: string[];
      html?: string;
      edited?: boolean;
      editedAt?: string;
      /** A customer's answer to a campaign message (docs/campaigns.md "Receipts, replies, opt-out"). */
      campaign?: { id: number; name: string };
      /** Sent by a scheduled message (docs/scheduled-messages.md): which one and who scheduled it. */
      scheduled?: { id: number; by: { id: number; name: string } };
      /** CSAT (docs/csat.md): the survey's question (its rating once answered), the customer's typed answer, the thanks, a skipped survey's note. */
      csat?: CsatExtra;
    } | null;
  } | null;
  customerPlatformId: number;
  /** Outbound delivery (docs/outbound.md): a failed message shows its reason. */
  deliveryState?: 'pending' | 'sent' | 'failed' | null;
  deliveryError?: string | null;
  /** Set on the optimistic copy while the send is in flight. */
  pending?: boolean;
}

export interface ConversationPage {
  data: Conversation[];
  matchCount: number;
  totalCount: number;
  nextCursor: string | null;
}

export interface MessagePage {
  data: Message[];
  matchCount: number;
}

export interface Counter {
  all: number;
  starred: number;
  me: number;
  archived: number;
  segments: Record<string, number>;
  pending: number;
}

export interface QuickPhrase {
  id: number;
  tag: string;
  phrase: string;
  privacy: 'public' | 'private';
}

export interface Agent {
  id: number;
  name: string;
  avatar: string | null;
  isActive?: boolean;
  /** Connected now (docs/assignment.md "Availability"); with `availability` it is the dot in the menus. */
  isOnline?: boolean;
  availability?: 'online' | 'ausente';
}

export interface Group {
  id: number;
  name: string;
  icon?: string | null;
}

/** `extra_data.csat` of a message (api/csat/requestCsat.ts, recordAnswer.ts). */
export interface CsatExtra {
  kind: 'question' | 'answer' | 'thanks' | 'skipped';
  callId: number;
  scale?: 'numbers' | 'emojis';
  until?: string;
  rating?: number | null;
  comment?: string | null;
  answeredAt?: string;
  reason?: string;
}
