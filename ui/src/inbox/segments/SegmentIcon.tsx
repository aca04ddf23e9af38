import Box from '@mui/material/Box';
import FilterAlt from '@mui/icons-material/FilterAlt';

const HEX = /^#[0-9A-Fa-f]{6}$/;

/** A saved filter's icon (SPEC §3): a colour dot, an emoji, or the default filter icon. */
export function SegmentIcon({ icon, size = 18 }: { icon: string | null | undefined; size?: number }) {
  if (icon && HEX.test(icon)) {
    return <Box component="span" aria-hidden sx={{ display: 'inline-block', flexShrink: 0, width: size * 0.6, height: size * 0.6, m: `${size * 0.2}px`, borderRadius: '50%', bgcolor: icon }} />;
  }
  if (icon) {
    return (
      <Box component="span" aria-hidden sx={{ display: 'inline-flex', flexShrink: 0, width: size, justifyContent: 'center', fontSize: size * 0.85, lineHeight: 1 }}>
        {icon}
      </Box>
    );
  }
  return <FilterAlt aria-hidden sx={{ fontSize: size, flexShrink: 0 }} />;
}
