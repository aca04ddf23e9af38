import Box from '@mui/material/Box';
import type { SxProps, Theme } from '@mui/material/styles';
import { presenceColor, type PresenceState } from '../layout/availability';

/** A coloured dot for online (green), ausente (amber) or offline (grey); decorative, the label goes beside it. */
export function PresenceDot({ state, size = 10, sx }: { state: PresenceState; size?: number; sx?: SxProps<Theme> }) {
  return <Box component="span" aria-hidden data-presence={state} sx={[{ display: 'inline-block', flexShrink: 0, width: size, height: size, borderRadius: '50%', bgcolor: presenceColor(state) }, ...(Array.isArray(sx) ? sx : [sx])]} />;
}
