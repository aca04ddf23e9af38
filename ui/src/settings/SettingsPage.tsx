import type { ReactNode } from 'react';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';

/** Title and card of one settings page; `maxWidth` widens the card for a page with a side column (the widget's preview). */
export function SettingsPage({ title, children, maxWidth = 560 }: { title: string; children: ReactNode; maxWidth?: number }) {
  return (
    <>
      <Typography variant="h5" component="h1" fontWeight={700} sx={{ mb: 2 }}>
        {title}
      </Typography>
      <Paper variant="outlined" sx={{ p: 3, maxWidth }}>
        {children}
      </Paper>
    </>
  );
}
