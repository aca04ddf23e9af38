import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { texts } from '../../i18n/ptBR';
import { SettingsPage } from '../SettingsPage';

/** Settings of channel types not built yet: SPEC §8's notice. */
export function InDevelopmentPage() {
  return (
    <SettingsPage title={texts.channels.title}>
      <Alert severity="info">{texts.channels.inDevelopment}</Alert>
      <Button component={RouterLink} to="/settings/channels" sx={{ mt: 2 }}>
        {texts.channels.widget.back}
      </Button>
    </SettingsPage>
  );
}
