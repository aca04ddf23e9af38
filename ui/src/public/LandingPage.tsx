import { useState, type FormEvent } from 'react';
import { Navigate, Link as RouterLink, useNavigate } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import CheckCircleOutline from '@mui/icons-material/CheckCircleOutline';
import { texts } from '../i18n/ptBR';
import { useSession } from '../providers/session';
import { PublicShell } from './PublicShell';

const t = texts.public.landing;

/** `/`: advertises the free trial; the e-mail box leads to registration (SPEC §2 Public). */
export function LandingPage() {
  const session = useSession();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  if (session) return <Navigate to="/inbox" replace />;

  const start = (event: FormEvent) => {
    event.preventDefault();
    const query = email.trim() ? `?${new URLSearchParams({ email: email.trim() }).toString()}` : '';
    void navigate(`/user/register${query}`);
  };

  return (
    <PublicShell>
      <Box component="header" sx={{ py: 2, borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
        <Container sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
          <Typography component="span" variant="h6" fontWeight={800} color="primary">
            {texts.brand}
          </Typography>
          <Button component={RouterLink} to="/user/login" variant="outlined">
            {t.login}
          </Button>
        </Container>
      </Box>
      <Container component="main" maxWidth="md" sx={{ py: { xs: 6, md: 10 } }}>
        <Typography variant="h3" component="h1" fontWeight={800} gutterBottom>
          {t.title}
        </Typography>
        <Typography variant="h6" component="p" color="text.secondary" sx={{ mb: 3 }}>
          {t.subtitle}
        </Typography>
        <Typography component="p" fontWeight={700} color="primary" sx={{ mb: 2 }}>
          {t.trial}
        </Typography>
        <Stack component="form" direction={{ xs: 'column', sm: 'row' }} spacing={2} onSubmit={start} sx={{ mb: 5 }}>
          <TextField
            id="landing-email"
            type="email"
            label={t.emailLabel}
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            autoComplete="email"
            sx={{ flex: 1 }}
          />
          <Button type="submit" variant="contained" size="large">
            {t.start}
          </Button>
        </Stack>
        <Stack component="ul" spacing={1.5} sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {t.features.map((feature) => (
            <Box component="li" key={feature} sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
              <CheckCircleOutline color="primary" aria-hidden />
              <Typography>{feature}</Typography>
            </Box>
          ))}
        </Stack>
      </Container>
    </PublicShell>
  );
}
