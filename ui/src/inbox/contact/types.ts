/** docs/api/inbox.md Customer (contact panel) and the parts of Message the media grid reads. */

export interface CustomerProperty {
  id: number;
  label: string;
  code: string;
  value: string;
}

export interface CustomerCallRef {
  id: number;
  protocol: string | number | null;
  createdAt: string;
  isFinished: boolean;
}

export interface CustomerChannel {
  customerPlatformId: number;
  platformId: number;
  description: string | null;
  Call: CustomerCallRef | null;
  pendingMerge: boolean;
}

export interface CustomerCall {
  id: number;
  customerPlatformId: number;
  operatorId: number | null;
  protocol: string | number | null;
  createdAt: string;
  finishedAt: string | null;
  isFinished: boolean;
}

export interface Customer {
  id: number;
  /** Null when the channel gave no name (a Meta profile Meta would not show, an e-mail without a display name). */
  name: string | null;
  phone: string | null;
  email: string | null;
  avatar: string | null;
  details: string | null;
  createdAt: string;
  lastViewed: string | null;
  sessionsCount: number;
  properties: CustomerProperty[];
  channels: CustomerChannel[];
  calls: CustomerCall[];
}

export interface CustomerSummary {
  id: number;
  name: string | null;
  phone: string | null;
  email: string | null;
  avatar: string | null;
}

export interface FileEntry {
  key: string;
  fileName: string;
  mime: string;
  size: number;
  url?: string;
}

export interface MediaMessage {
  id: number;
  content: unknown[];
  createdAt: string;
  customerPlatformId: number;
  isDeleted?: boolean;
}

/** What the panel needs of the open conversation (docs/api/inbox.md Conversation). */
export interface PanelConversation {
  id: number;
  callId?: number | null;
  customerId?: number;
}
