import type { ReactNode } from 'react';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider, createTheme } from '@mui/material/styles';
import { themeOptions } from '../theme/muiTheme';

const theme = createTheme(themeOptions);

/** MUI theme for the pages outside react-admin (landing and /user/*). */
export function PublicShell({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      {children}
    </ThemeProvider>
  );
}
