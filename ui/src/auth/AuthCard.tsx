import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { SxProps, Theme } from '@mui/material/styles';
import { texts } from '../i18n/ptBR';

/** The frame of every /user page: brand, one h1 title, content. */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: ReactNode; children: ReactNode }) {
  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', p: 2 }}>
      <Link component={RouterLink} to="/" underline="none" variant="h5" fontWeight={800} sx={{ mb: 3 }}>
        {texts.brand}
      </Link>
      <Paper elevation={2} sx={{ width: '100%', maxWidth: 440, p: { xs: 3, sm: 4 } }}>
        <Typography variant="h5" component="h1" fontWeight={700} gutterBottom>
          {title}
        </Typography>
        {subtitle ? (
          <Typography color="text.secondary" sx={{ mb: 1 }}>
            {subtitle}
          </Typography>
        ) : null}
        {children}
      </Paper>
    </Box>
  );
}

/** Form-level errors (those that belong to no field): announced to screen readers. `sx` replaces the space above. */
export function FormErrors({ messages, sx = { mt: 2 } }: { messages: string[]; sx?: SxProps<Theme> }) {
  if (messages.length === 0) return null;
  return (
    <Alert severity="error" sx={sx} data-testid="form-error">
      {messages.map((m) => (
        <div key={m}>{m}</div>
      ))}
    </Alert>
  );
}

/** The end of every /user form: its form-level errors, then the one submit button. */
export function FormSubmit({ errors, submitting, disabled, children }: { errors: string[]; submitting: boolean; disabled?: boolean; children: ReactNode }) {
  return (
    <>
      <FormErrors messages={errors} />
      <Button type="submit" variant="contained" size="large" fullWidth sx={{ mt: 2 }} disabled={disabled} loading={submitting}>
        {children}
      </Button>
    </>
  );
}

/** A /user page that only tells an outcome: what went wrong (if anything) and one button onward. */
export function AuthNotice({ title, subtitle, errors = [], to, action }: { title: string; subtitle?: ReactNode; errors?: string[]; to: string; action: string }) {
  return (
    <AuthCard title={title} subtitle={subtitle}>
      <FormErrors messages={errors} sx={{}} />
      <Button component={RouterLink} to={to} variant="contained" fullWidth sx={{ mt: 2 }}>
        {action}
      </Button>
    </AuthCard>
  );
}
