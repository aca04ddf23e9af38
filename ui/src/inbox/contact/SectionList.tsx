import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** What a contact panel section says when it has nothing to list ('Nenhum canal.', 'Nenhuma mídia.'). */
export function EmptyNote({ children }: { children: ReactNode }) {
  return (
    <Typography fontSize={13} color="text.secondary">
      {children}
    </Typography>
  );
}

/** A contact panel section's items one under the other (`ol` where the order means something), or its EmptyNote. */
export function SectionList({ component, label, empty, children }: { component: 'ul' | 'ol'; label: string; empty: string; children: ReactNode[] }) {
  if (children.length === 0) return <EmptyNote>{empty}</EmptyNote>;
  return (
    <Box component={component} aria-label={label} sx={{ listStyle: 'none', m: 0, p: 0, display: 'flex', flexDirection: 'column', gap: 1 }}>
      {children}
    </Box>
  );
}
