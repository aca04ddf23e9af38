import Box from '@mui/material/Box';
import { shellTexts as texts } from '../i18n/shellTexts';
import { themeVar } from '../theme/colors';
import { useRealtimeStatus } from '../realtime/RealtimeProvider';

const t = texts.layout.live;

/**
 * The small live-connection dot of the header (SPEC §4: socket failure marks live connection off). From 900 px
 * it sits on the corner of the team chat's icon (`corner`: the header has no room for both side by side).
 */
export function LiveIndicator({ corner = false }: { corner?: boolean }) {
  const status = useRealtimeStatus();
  const label = status === 'online' ? t.online : status === 'connecting' ? t.connecting : t.offline;
  return (
    <Box
      role="status"
      title={label}
      aria-label={label}
      data-testid="live-indicator"
      data-status={status}
      sx={corner ? { position: 'absolute', right: 0, bottom: 2, display: 'flex', pointerEvents: 'none' } : { display: 'flex', alignItems: 'center', p: { xs: 0.5, sm: 1 } }}
    >
      <Box
        component="span"
        sx={{
          width: 10,
          height: 10,
          borderRadius: '50%',
          border: '2px solid #fff',
          bgcolor: status === 'online' ? themeVar('activePresence') : status === 'connecting' ? '#f59e0b' : '#9ca3af',
        }}
      />
    </Box>
  );
}
