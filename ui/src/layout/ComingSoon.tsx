import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import Construction from '@mui/icons-material/Construction';
import { shellTexts as texts } from '../i18n/shellTexts';

/** A route of SPEC §2 whose feature lands in a later issue: says so plainly, shows no made-up data. */
export function ComingSoon({ title }: { title: string }) {
  return (
    <Box sx={{ p: 3 }}>
      <Typography variant="h5" component="h1" fontWeight={700} gutterBottom>
        {title}
      </Typography>
      <Paper variant="outlined" sx={{ p: 4, display: 'flex', gap: 2, alignItems: 'center', maxWidth: 640 }}>
        <Construction color="action" aria-hidden />
        <Typography>{texts.comingSoon.text}</Typography>
      </Paper>
    </Box>
  );
}
