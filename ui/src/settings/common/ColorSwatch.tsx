import Box from '@mui/material/Box';

/** A tag-like chip in a colour pair: the list cell and the picker's options look the same. */
export function ColorSwatch({ color, textColor, label }: { color: string; textColor?: string; label: string }) {
  return (
    <Box component="span" sx={{ display: 'inline-block', px: 1, py: 0.25, borderRadius: 1, bgcolor: color, color: textColor ?? 'inherit', fontSize: 13, fontWeight: 600 }}>
      {label}
    </Box>
  );
}
