/** SPEC §9 inbox constants. */
export const INBOX = {
  firstPage: 20,
  nextPage: 50,
  messagesPage: 30,
  list: { min: 280, max: 700, default: 350 },
  /** SPEC §9 says 300 to 700 with a default of 280: the default is shown as is, dragging clamps to 300–700. */
  panel: { min: 300, max: 700, default: 280 },
  collapseSidebarAt: 1366,
  /** At or below this width one pane shows at a time (DESIGN §8): the list, or the open conversation. */
  onePaneAt: 767,
  searchDebounceMs: 500,
  composingDebounceMs: 1000,
  quickPhraseMenuWidth: 600,
  fileLimitBytes: 16 * 1024 * 1024,
} as const;

/** SPEC §3 channel platform ids. */
export const Platform = { WHATSAPP: 1, TELEGRAM: 2, FACEBOOK: 3, WIDGET: 4, EMAIL: 5, CUSTOM: 6, INSTAGRAM: 7 } as const;

/** SPEC §3 message types and delivery status. */
export const MessageType = { COMMON: 0, SYSTEM: 1, PRIVATE: 2, BOT: 3, EMAIL: 4 } as const;
export const MessageStatus = { SENT: 1, RECEIVED: 2, DELIVERED: 3, READ: 4 } as const;

/** SPEC §4: reply on WhatsApp, Instagram and Telegram messages that have an external id; delete on WhatsApp and Telegram. */
const REPLY_PLATFORMS: readonly number[] = [Platform.WHATSAPP, Platform.INSTAGRAM, Platform.TELEGRAM];
const DELETE_PLATFORMS: readonly number[] = [Platform.WHATSAPP, Platform.TELEGRAM];
export const canReplyOn = (platformId: number) => REPLY_PLATFORMS.includes(platformId);
/** A WhatsApp Cloud API line has no call that deletes a sent message (docs/channels/whatsapp.md). */
export const canDeleteOn = (platformId: number, channelProvider?: string | null) =>
  DELETE_PLATFORMS.includes(platformId) && !(platformId === Platform.WHATSAPP && channelProvider === 'cloud');

/** Built-in segments of SPEC §2; anything else in the URL is a custom segment id. */
export const BUILTIN_SEGMENTS = ['all', 'starred', 'me', 'archived'] as const;
export type BuiltinSegment = (typeof BUILTIN_SEGMENTS)[number];
export const isBuiltinSegment = (s: string): s is BuiltinSegment => (BUILTIN_SEGMENTS as readonly string[]).includes(s);
/** SPEC §2: closing the detail goes to /inbox/new, the "nothing selected" state of the last segment. */
export const NOTHING_SELECTED = 'new';
