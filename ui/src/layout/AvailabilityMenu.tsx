import { useState, type MouseEvent } from 'react';
import { useNavigate } from 'react-router';
import { useNotify } from 'react-admin';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { shellTexts as texts } from '../i18n/shellTexts';
import { format } from '../i18n/format';
import { PresenceDot } from '../common/PresenceDot';
import { useAvailabilityLive, useIdleAway, useMyAvailability, type PresenceState } from './availability';

const t = texts.layout.availability;
const STATES: PresenceState[] = ['online', 'ausente', 'offline'];
const help: Record<PresenceState, string> = { online: t.onlineHelp, ausente: t.ausenteHelp, offline: t.offlineHelp };

/** The header's availability: a coloured dot that opens Online / Ausente / Offline (Offline logs out). */
export function AvailabilityMenu() {
  useAvailabilityLive();
  useIdleAway();
  const { availability, set, pending } = useMyAvailability();
  const notify = useNotify();
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const open = Boolean(anchor);
  const current: PresenceState = availability ?? 'online';

  const choose = (state: PresenceState) => {
    setAnchor(null);
    if (state === 'offline') {
      void navigate('/user/logout');
      return;
    }
    if (state === availability) return;
    set(state).catch(() => notify(t.failed, { type: 'error' }));
  };

  return (
    <>
      <ButtonBase
        id="availability-button"
        aria-label={format(t.open, { state: t[current] })}
        aria-haspopup="menu"
        aria-controls={open ? 'availability-menu' : undefined}
        aria-expanded={open ? 'true' : undefined}
        data-testid="availability-button"
        data-state={availability ?? 'loading'}
        disabled={pending}
        onClick={(e: MouseEvent<HTMLElement>) => setAnchor(e.currentTarget)}
        sx={{ borderRadius: 2, minWidth: 44, minHeight: 44, px: 1, gap: 0.75, color: 'inherit', flexShrink: 0, '&:focus-visible': { outline: '2px solid #fff' } }}
      >
        <PresenceDot state={current} size={12} sx={{ border: '2px solid #fff' }} />
        <Box component="span" sx={{ display: { xs: 'none', md: 'inline' }, fontSize: 14, fontWeight: 600 }}>
          {t[current]}
        </Box>
      </ButtonBase>
      <Menu
        id="availability-menu"
        anchorEl={anchor}
        open={open}
        onClose={() => setAnchor(null)}
        slotProps={{ list: { 'aria-labelledby': 'availability-button' } }}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        {STATES.map((state) => (
          <MenuItem key={state} selected={state === current} aria-current={state === current ? 'true' : undefined} onClick={() => choose(state)} sx={{ minHeight: 48 }}>
            <ListItemIcon>
              <PresenceDot state={state} size={12} />
            </ListItemIcon>
            <ListItemText primary={t[state]} secondary={help[state]} />
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
