/** Shapes of the widget API (docs/api/inbox.md Widget; server side: api/channels/widget/presentWidgetMessage.ts). */
export interface WidgetFile {
  fileName: string;
  mime: string;
  size: number;
  url: string;
}
export type WidgetItem = { insert: string } | { file: WidgetFile };

export interface WidgetMessage {
  id: number;
  content: WidgetItem[];
  type: number;
  createdAt: string;
  sender: 'customer' | 'operator' | 'bot' | 'system' | string;
  operator: { name: string; avatar: string | null } | null;
}

export interface WidgetConfig {
  identifier: string;
  company: string;
  color: string | null;
}

/** The envelope of every realtime event (DESIGN.md §6). */
export interface Envelope {
  event: string;
  data: unknown;
  id: string;
  at: string;
}
