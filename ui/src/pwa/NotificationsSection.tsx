import { useCallback, useEffect, useState } from 'react';
import { useNotify } from 'react-admin';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import { texts } from '../i18n/ptBR';
import { usePreference } from '../inbox/usePreference';
import { SOUND_PREFERENCE } from '../inbox/sound';
import { TEAM_SOUND_PREFERENCE, teamLabels } from '../teamChat/labels';
import { pushApi, pushState, type PushDevice, type PushState } from './pushApi';

const t = texts.settings.notifications;

/**
 * The profile's notification settings (docs/pwa.md): "Notificações neste aparelho" (Web Push opt-in per
 * device, with the unsupported and blocked states explained), the agent's devices that receive pushes with
 * a remove button each, and the new-message sounds of this browser (the inbox's and the team chat's).
 */
export function NotificationsSection() {
  const notify = useNotify();
  const [devices, setDevices] = useState<PushDevice[] | undefined>();
  const [loadFailed, setLoadFailed] = useState(false);
  const [state, setState] = useState<PushState | undefined>();
  const [endpoint, setEndpoint] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [sound, setSound] = usePreference(SOUND_PREFERENCE, true);
  const [teamSound, setTeamSound] = usePreference(TEAM_SOUND_PREFERENCE, true);

  const load = useCallback(async () => {
    setLoadFailed(false);
    try {
      const list = await pushApi.devices();
      setDevices(list);
      setState(await pushState(list));
      setEndpoint(await pushApi.browserEndpoint().catch(() => undefined));
    } catch {
      setLoadFailed(true);
      setState(await pushState(undefined).catch(() => 'unsupported' as const));
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const toggle = async (on: boolean) => {
    setBusy(true);
    try {
      if (on) {
        const next = await pushApi.enable();
        if (next === 'on') notify(t.enabled, { type: 'success' });
      } else {
        await pushApi.disable(devices);
        notify(t.disabled, { type: 'info' });
      }
    } catch {
      notify(t.error, { type: 'error' });
    } finally {
      await load();
      setBusy(false);
    }
  };

  const remove = async (device: PushDevice) => {
    try {
      if (device.endpoint === endpoint) await pushApi.disable(devices);
      else await pushApi.removeDevice(device.id);
      notify(t.removed, { type: 'info' });
    } catch {
      notify(t.error, { type: 'error' });
    }
    await load();
  };

  const help = state === 'unsupported' ? t.unsupported : state === 'denied' ? t.denied : state === 'on' ? t.on : t.off;

  return (
    <Box component="section" aria-labelledby="notifications-title" sx={{ mt: 4 }}>
      <Divider sx={{ mb: 2 }} />
      <Typography id="notifications-title" variant="h6" component="h2" sx={{ mb: 1 }}>
        {t.title}
      </Typography>
      <FormControlLabel
        sx={{ minHeight: 44 }}
        control={
          <Switch
            checked={state === 'on'}
            disabled={state === undefined || state === 'unsupported' || state === 'denied' || busy}
            onChange={(e) => void toggle(e.target.checked)}
            slotProps={{ input: { 'aria-describedby': 'push-device-help' } }}
          />
        }
        label={t.device}
      />
      <FormHelperText id="push-device-help" sx={{ mt: 0, mb: 1 }}>
        {state === undefined ? <CircularProgress size={14} aria-label={texts.common.loading} /> : help}
      </FormHelperText>

      <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }}>
        {t.devices}
      </Typography>
      {loadFailed ? (
        <Alert severity="error" action={<Button onClick={() => void load()}>{t.retry}</Button>} sx={{ mt: 1 }}>
          {t.loadError}
        </Alert>
      ) : devices === undefined ? (
        <CircularProgress size={20} sx={{ mt: 1 }} aria-label={texts.common.loading} />
      ) : devices.length === 0 ? (
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          {t.noDevices}
        </Typography>
      ) : (
        <List dense aria-label={t.devices}>
          {devices.map((d) => (
            <ListItem
              key={d.id}
              disableGutters
              secondaryAction={
                <IconButton edge="end" aria-label={t.removeDevice(d.label)} onClick={() => void remove(d)} sx={{ width: 44, height: 44 }}>
                  <DeleteOutlineIcon />
                </IconButton>
              }
            >
              <ListItemText
                primary={d.endpoint === endpoint ? `${d.label} · ${t.thisDevice}` : d.label}
                secondary={t.since(new Date(d.createdAt).toLocaleDateString('pt-BR'))}
                slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }}
              />
            </ListItem>
          ))}
        </List>
      )}

      <FormControlLabel sx={{ mt: 2, minHeight: 44 }} control={<Switch checked={sound} onChange={(e) => setSound(e.target.checked)} slotProps={{ input: { 'aria-describedby': 'sound-help' } }} />} label={t.sound} />
      <FormHelperText id="sound-help" sx={{ mt: 0 }}>
        {t.soundHelp}
      </FormHelperText>
      <FormControlLabel
        sx={{ mt: 2, minHeight: 44 }}
        control={<Switch checked={teamSound} onChange={(e) => setTeamSound(e.target.checked)} slotProps={{ input: { 'aria-describedby': 'team-sound-help' } }} />}
        label={teamLabels.sound}
      />
      <FormHelperText id="team-sound-help" sx={{ mt: 0 }}>
        {teamLabels.soundHelp}
      </FormHelperText>
    </Box>
  );
}
