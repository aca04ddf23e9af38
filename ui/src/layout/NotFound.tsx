import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { shellTexts as texts } from '../i18n/shellTexts';

export function NotFound() {
  return (
    <Box sx={{ p: 4 }}>
      <Typography variant="h5" component="h1" gutterBottom>
        {texts.common.notFound}
      </Typography>
      <Button component={RouterLink} to="/inbox" variant="contained">
        {texts.common.backHome}
      </Button>
    </Box>
  );
}
