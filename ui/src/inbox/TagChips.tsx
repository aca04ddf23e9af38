import Box from '@mui/material/Box';
import type { SxProps, Theme } from '@mui/material/styles';
import type { Tag } from './types';

const HEX = /^#[0-9a-f]{3,8}$/i;
const safe = (color: string | undefined, fallback: string) => (color && HEX.test(color) ? color : fallback);

/** Tags of a conversation in their own colours (SPEC §3 color/textColor pairs). */
export function TagChips({ tags, max, sx }: { tags: Tag[]; max?: number; sx?: SxProps<Theme> }) {
  const shown = max ? tags.slice(0, max) : tags;
  const rest = tags.length - shown.length;
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, ...(sx as object) }}>
      {shown.map((tag) => (
        <Box
          key={tag.id}
          component="span"
          sx={{ fontSize: 11, fontWeight: 600, lineHeight: '18px', px: 0.75, borderRadius: 1, bgcolor: safe(tag.color, '#e5e7eb'), color: safe(tag.textColor, '#111827'), maxWidth: 140, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
        >
          {tag.name}
        </Box>
      ))}
      {rest > 0 ? (
        <Box component="span" sx={{ fontSize: 11, lineHeight: '18px', color: 'text.secondary' }}>
          +{rest}
        </Box>
      ) : null}
    </Box>
  );
}
