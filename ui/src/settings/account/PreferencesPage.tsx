import { useEffect, useState } from 'react';
import { useNotify } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { texts } from '../../i18n/ptBR';
import { DEFAULT_THEME, THEME_KEYS, applyTheme, loadTheme, saveTheme, type ThemeColors } from '../../theme/colors';
import { SettingsPage } from '../SettingsPage';

const t = texts.settings.preferences;

function Preview({ colors }: { colors: ThemeColors }) {
  const item = { px: 1.5, py: 0.75, borderRadius: 1, fontSize: 14 } as const;
  return (
    <Box aria-label={t.preview} role="img" sx={{ bgcolor: colors.sidebarBg, p: 1.5, borderRadius: 1, width: 220 }}>
      <Box sx={{ ...item, bgcolor: colors.activeItem, color: colors.activeItemText, fontWeight: 600 }}>{texts.inbox.segments.all}</Box>
      <Box sx={{ ...item, bgcolor: colors.menuHoverBg, color: colors.hoverItem }}>{texts.inbox.segments.starred}</Box>
      <Box sx={{ ...item, color: colors.text, display: 'flex', alignItems: 'center', gap: 1 }}>
        {texts.inbox.segments.me}
        <Box component="span" sx={{ width: 8, height: 8, borderRadius: '50%', bgcolor: colors.activePresence }} />
        <Box component="span" sx={{ ml: 'auto', px: 0.75, borderRadius: 8, fontSize: 11, color: '#fff', bgcolor: colors.mentionBadge }}>
          3
        </Box>
      </Box>
    </Box>
  );
}

/**
 * /settings/account/preferences: the 8 theme colours of SPEC §3, kept in local preferences and
 * applied at once (the sidebars and badges paint with CSS variables).
 */
export function PreferencesPage() {
  const notify = useNotify();
  const [colors, setColors] = useState<ThemeColors>(loadTheme);
  // Colours are previewed live on the real sidebars; leaving without saving puts the saved ones back.
  useEffect(() => () => applyTheme(loadTheme()), []);
  const change = (key: keyof ThemeColors, value: string) => {
    const next = { ...colors, [key]: value.toLowerCase() };
    setColors(next);
    applyTheme(next);
  };
  const save = () => {
    saveTheme(colors);
    notify(t.saved, { type: 'success' });
  };
  const restore = () => {
    setColors(DEFAULT_THEME);
    applyTheme(DEFAULT_THEME);
  };
  return (
    <SettingsPage title={t.title}>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t.intro}
      </Typography>
      <Grid container spacing={2}>
        {THEME_KEYS.map((key) => (
          <Grid key={key} size={{ xs: 12, sm: 6 }}>
            <TextField
              id={`theme-${key}`}
              type="color"
              label={t.colors[key]}
              value={colors[key]}
              onChange={(e) => change(key, e.target.value)}
              fullWidth
              slotProps={{ inputLabel: { shrink: true } }}
            />
          </Grid>
        ))}
      </Grid>
      <Typography variant="subtitle2" component="h2" sx={{ mt: 3, mb: 1 }}>
        {t.preview}
      </Typography>
      <Preview colors={colors} />
      <Stack direction="row" spacing={2} sx={{ mt: 3 }}>
        <Button variant="contained" onClick={save}>
          {texts.common.save}
        </Button>
        <Button onClick={restore}>{t.reset}</Button>
      </Stack>
    </SettingsPage>
  );
}
