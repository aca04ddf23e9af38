import WhatsApp from '@mui/icons-material/WhatsApp';
import Telegram from '@mui/icons-material/Telegram';
import Facebook from '@mui/icons-material/Facebook';
import Instagram from '@mui/icons-material/Instagram';
import ChatBubbleOutline from '@mui/icons-material/ChatBubbleOutline';
import MailOutline from '@mui/icons-material/MailOutline';
import Extension from '@mui/icons-material/Extension';
import type { SvgIconProps } from '@mui/material/SvgIcon';
import { shellTexts as texts } from '../i18n/shellTexts';
import { Platform } from './constants';

const ICONS = {
  [Platform.WHATSAPP]: { Icon: WhatsApp, color: '#25d366' },
  [Platform.TELEGRAM]: { Icon: Telegram, color: '#229ed9' },
  [Platform.FACEBOOK]: { Icon: Facebook, color: '#1877f2' },
  [Platform.WIDGET]: { Icon: ChatBubbleOutline, color: '#0f766e' },
  [Platform.EMAIL]: { Icon: MailOutline, color: '#6b7280' },
  [Platform.CUSTOM]: { Icon: Extension, color: '#7c3aed' },
  [Platform.INSTAGRAM]: { Icon: Instagram, color: '#e1306c' },
} as Record<number, { Icon: typeof WhatsApp; color: string }>;

export const channelLabel = (platformId: number) => texts.inbox.platforms[platformId as keyof typeof texts.inbox.platforms] ?? '';

/** SPEC §3 channel of a conversation, as a small coloured icon with its name for screen readers. */
export function ChannelIcon({ platformId, size = 16, ...props }: { platformId: number; size?: number } & Omit<SvgIconProps, 'sx'>) {
  const entry = ICONS[platformId] ?? ICONS[Platform.CUSTOM]!;
  const { Icon, color } = entry;
  return <Icon titleAccess={channelLabel(platformId)} sx={{ fontSize: size, color, flexShrink: 0 }} {...props} />;
}
