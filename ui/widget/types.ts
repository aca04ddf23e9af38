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
  /** A satisfaction question (docs/csat.md): drawn with its rating buttons. */
  csat?: WidgetCsat;
}

/** The state of a satisfaction question (api/csat/present.ts). */
export interface WidgetCsat {
  state: 'pending' | 'answered' | 'expired';
  scale: 'numbers' | 'emojis';
  rating: number | null;
  comment: string | null;
  thanks: string;
  until: string;
}

export type PreChatMode = 'off' | 'optional' | 'required';
export type PreChatField = 'name' | 'email' | 'phone';

/** GET /v1/widget/config (api/channels/widget/visitorRouter.ts): the widget's settings and live facts. */
export interface WidgetConfig {
  identifier: string;
  company: string;
  color: string | null;
  greeting?: string;
  tagline?: string;
  logo?: string | null;
  position?: 'right' | 'left';
  preChat?: Record<PreChatField, PreChatMode>;
  allowedSites?: string[];
  /** Median first-response minutes of the last 7 days; null when unknown or switched off. */
  responseMinutes?: number | null;
  outOfHours?: boolean;
  outOfHoursMessage?: string | null;
}

/** What the pre-chat form gave, sent with the first message. */
export interface VisitorContact {
  name?: string;
  email?: string;
  phone?: string;
}

/** The envelope of every realtime event (DESIGN.md §6). */
export interface Envelope {
  event: string;
  data: unknown;
  id: string;
  at: string;
}
