import type { ReactNode } from 'react';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';

/** Title and card of one settings page. */
export function SettingsPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <>
      <Typography variant="h5" component="h1" fontWeight={700} sx={{ mb: 2 }}>
        {title}
      </Typography>
      <Paper variant="outlined" sx={{ p: 3, maxWidth: 560 }}>
        {children}
      </Paper>
    </>
  );
}
