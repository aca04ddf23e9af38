import type { ThemeOptions } from '@mui/material/styles';

/** Base MUI theme of the public pages and of react-admin (which takes options and builds its own). */
export const themeOptions: ThemeOptions = {
  palette: {
    mode: 'light',
    primary: { main: '#0f766e', contrastText: '#ffffff' },
    secondary: { main: '#334155' },
    background: { default: '#f5f7f9', paper: '#ffffff' },
  },
  shape: { borderRadius: 8 },
  typography: {
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    button: { textTransform: 'none', fontWeight: 600 },
  },
  components: {
    MuiTextField: { defaultProps: { variant: 'outlined', size: 'medium' } },
    MuiButtonBase: { defaultProps: { disableRipple: false } },
    // Phones (below MUI's sm breakpoint): every icon button is a 44 px touch target (issue 28), whatever its size.
    MuiIconButton: { styleOverrides: { root: { '@media (max-width: 599.95px)': { minWidth: 44, minHeight: 44 } } } },
  },
};
