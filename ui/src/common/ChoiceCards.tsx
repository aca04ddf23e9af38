import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** A page that offers cards to choose from (the power-ups, the type of a new channel): its title, what to do, the cards. */
export function ChoiceCards({ title, text, children }: { title: string; text: string; children: ReactNode }) {
  return (
    <>
      <Typography variant="h5" component="h1" fontWeight={700} sx={{ mb: 1 }}>
        {title}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {text}
      </Typography>
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))', gap: 2, maxWidth: 960 }}>{children}</Box>
    </>
  );
}
