import { useEffect, useState, type MouseEvent } from 'react';
import { useNavigate } from 'react-router';
import { useNotify } from 'react-admin';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import { shellTexts as texts } from '../i18n/shellTexts';
import { format } from '../i18n/format';
import { PresenceDot } from '../common/PresenceDot';
import { LazyPart, preloadableLazy, useOpenedOnce, whenIdle } from '../common/lazyLoad';
import { useAvailabilityLive, useIdleAway, useMyAvailability, type PresenceState } from './availability';

const t = texts.layout.availability;
const STATES: PresenceState[] = ['online', 'ausente', 'offline'];
// The menu (HeaderMenus.tsx) loads when the browser is idle after the first paint.
const AvailabilityMenuList = preloadableLazy(() => import('./HeaderMenus').then((m) => m.AvailabilityMenuList));

/** The header's availability: a coloured dot that opens Online / Ausente / Offline (Offline logs out). */
export function AvailabilityMenu() {
  useAvailabilityLive();
  useIdleAway();
  const { availability, set, pending } = useMyAvailability();
  const notify = useNotify();
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const open = Boolean(anchor);
  const opened = useOpenedOnce(open);
  useEffect(() => whenIdle(() => void AvailabilityMenuList.preload()), []);
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
      {opened ? (
        <LazyPart>
          <AvailabilityMenuList anchor={anchor} onClose={() => setAnchor(null)} states={STATES} current={current} onChoose={choose} />
        </LazyPart>
      ) : null}
    </>
  );
}
