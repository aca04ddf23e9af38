import Box from '@mui/material/Box';
import type SvgIcon from '@mui/material/SvgIcon';
import FilterAlt from '@mui/icons-material/FilterAlt';
import Star from '@mui/icons-material/Star';
import Whatshot from '@mui/icons-material/Whatshot';
import ChatBubble from '@mui/icons-material/ChatBubble';
import PushPin from '@mui/icons-material/PushPin';
import ShoppingCart from '@mui/icons-material/ShoppingCart';
import Paid from '@mui/icons-material/Paid';
import RocketLaunch from '@mui/icons-material/RocketLaunch';
import PriorityHigh from '@mui/icons-material/PriorityHigh';
import CheckCircle from '@mui/icons-material/CheckCircle';
import Visibility from '@mui/icons-material/Visibility';

const HEX = /^#[0-9A-Fa-f]{6}$/;

/**
 * The emojis the filter editor offers, stored as the emoji (SPEC §3: a segment's icon may be one) but drawn
 * with the icon shipped in the bundle: a machine without an emoji font would show empty boxes.
 */
export const SEGMENT_EMOJI_ICONS: { emoji: string; name: string; Icon: typeof SvgIcon }[] = [
  { emoji: '⭐', name: 'estrela', Icon: Star },
  { emoji: '🔥', name: 'fogo', Icon: Whatshot },
  { emoji: '💬', name: 'balão de conversa', Icon: ChatBubble },
  { emoji: '📌', name: 'alfinete', Icon: PushPin },
  { emoji: '🛒', name: 'carrinho', Icon: ShoppingCart },
  { emoji: '💰', name: 'dinheiro', Icon: Paid },
  { emoji: '🚀', name: 'foguete', Icon: RocketLaunch },
  { emoji: '❗', name: 'exclamação', Icon: PriorityHigh },
  { emoji: '✅', name: 'concluído', Icon: CheckCircle },
  { emoji: '👀', name: 'olhos', Icon: Visibility },
];
const BY_EMOJI = new Map(SEGMENT_EMOJI_ICONS.map((e) => [e.emoji, e.Icon]));

/** A saved filter's icon (SPEC §3): a colour dot, one of our icons, another emoji as text, or the default filter icon. */
export function SegmentIcon({ icon, size = 18 }: { icon: string | null | undefined; size?: number }) {
  if (icon && HEX.test(icon)) {
    return <Box component="span" aria-hidden data-segment-dot sx={{ display: 'inline-block', flexShrink: 0, width: size * 0.6, height: size * 0.6, m: `${size * 0.2}px`, borderRadius: '50%', bgcolor: icon }} />;
  }
  const Shipped = icon ? BY_EMOJI.get(icon) : undefined;
  if (Shipped) return <Shipped aria-hidden sx={{ fontSize: size, flexShrink: 0 }} />;
  if (icon) {
    return (
      <Box component="span" aria-hidden sx={{ display: 'inline-flex', flexShrink: 0, width: size, justifyContent: 'center', fontSize: size * 0.85, lineHeight: 1 }}>
        {icon}
      </Box>
    );
  }
  return <FilterAlt aria-hidden sx={{ fontSize: size, flexShrink: 0 }} />;
}
