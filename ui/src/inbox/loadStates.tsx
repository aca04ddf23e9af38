import type { ReactNode } from 'react';
import Alert, { type AlertColor } from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import type { SxProps, Theme } from '@mui/material/styles';
import { texts } from '../i18n/ptBR';

/** The spinner a panel or dialog shows while its query loads. */
export function Loading({ size = 28, padding = 3 }: { size?: number; padding?: number }) {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', p: padding }}>
      <CircularProgress size={size} aria-label={texts.common.loading} />
    </Box>
  );
}

/** A query that failed: what failed, and 'Tentar novamente' to refetch it. */
export function RetryAlert({ onRetry, severity = 'error', sx, children }: { onRetry: () => unknown; severity?: AlertColor; sx?: SxProps<Theme>; children: ReactNode }) {
  return (
    <Alert
      severity={severity}
      sx={sx}
      action={
        <Button color="inherit" size="small" onClick={() => void onRetry()}>
          {texts.inboxPanels.retry}
        </Button>
      }
    >
      {children}
    </Alert>
  );
}
