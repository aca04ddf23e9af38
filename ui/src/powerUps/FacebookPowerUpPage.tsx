import { Navigate, useParams } from 'react-router';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { texts } from '../i18n/ptBR';
import { FacebookConnect } from '../settings/channels/facebook/FacebookConnect';

const t = texts.channels.facebook;

/**
 * SPEC §2 /power-ups/facebook/{id?}: connect Facebook and list the connected pages ('Página conectada').
 * A page's id opens its settings, the same page as /settings/channels/facebook/{id}.
 */
export function FacebookPowerUpPage() {
  const { id } = useParams();
  if (id !== undefined) return <Navigate to={/^\d+$/.test(id) ? `/settings/channels/facebook/${id}` : '/power-ups/facebook'} replace />;
  return (
    <Box sx={{ p: 3, maxWidth: 720 }}>
      <Typography variant="h5" component="h1" fontWeight={700} sx={{ mb: 2 }}>
        {t.powerUpTitle}
      </Typography>
      <FacebookConnect returnTo="/power-ups/facebook" savedText={t.pageConnected} linkTo={(c) => `/power-ups/facebook/${c.id}`} />
    </Box>
  );
}
