/** docs/api/inbox.md Customer (contact panel, as api/customers/presenters.ts presents it) and the parts of Message the media grid reads. */
import type { CustomerView, presentCustomerSummary } from '../../../../api/customers/presenters';
import type { Wire } from '../../providers/wire';

export type Customer = Wire<CustomerView>;
export type CustomerProperty = Customer['properties'][number];
export type CustomerChannel = Customer['channels'][number];
export type CustomerCallRef = NonNullable<CustomerChannel['Call']>;
export type CustomerCall = Customer['calls'][number];
export type CustomerSummary = ReturnType<typeof presentCustomerSummary>;
export type { FileEntry } from '../types';

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
