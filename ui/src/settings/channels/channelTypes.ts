/** SPEC §2: /settings/channels/add/{type} and /settings/channels/{type}/{id}; the API names the widget 'widget'. */
export const CHANNEL_SLUGS = ['whatsapp', 'telegram', 'chat-widget', 'instagram', 'facebook', 'email', 'custom'] as const;
export type ChannelSlug = (typeof CHANNEL_SLUGS)[number];

/** Types whose settings exist; the others say 'Funcionalidade em desenvolvimento!'. */
export const AVAILABLE_SLUGS: readonly ChannelSlug[] = ['whatsapp', 'chat-widget', 'custom', 'telegram', 'email', 'facebook', 'instagram'];

export function slugOf(channelId: string): ChannelSlug {
  return channelId === 'widget' ? 'chat-widget' : ((CHANNEL_SLUGS as readonly string[]).includes(channelId) ? channelId : 'custom') as ChannelSlug;
}

/** SPEC §3 platform ids, for the channel icons. */
export const PLATFORM_OF: Record<ChannelSlug, number> = { whatsapp: 1, telegram: 2, facebook: 3, 'chat-widget': 4, email: 5, custom: 6, instagram: 7 };

/** SPEC §9: channel names are cut at 45 characters in lists. */
export function truncateName(name: string, max = 45): string {
  return name.length > max ? `${name.slice(0, max - 1)}…` : name;
}
