import { useCallback, useEffect, useState } from 'react';
import { useNotify } from 'react-admin';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { format } from '../../i18n/format';
import { errorDescriptions } from '../../providers/httpClient';
import { useSession } from '../../providers/session';
import { twoFactorApi, type TwoFactorRequirementView } from './twoFactorApi';
import { twoFactorTexts } from './twoFactorTexts';

const t = twoFactorTexts.requirement;
/** Reading needs the members screen's level (6); only the owner (10) changes it (docs/two-factor.md). */
const READ_LEVEL = 6;
const OWNER = 10;

/**
 * The workspace page's "Verificação em duas etapas": the owner's switch that requires it of every member,
 * and who still lacks it. Turning it on needs the owner's own two-factor login (the server says so).
 */
export function TwoFactorRequirementSection() {
  const notify = useNotify();
  const session = useSession();
  const level = session?.workspace.accessLevel ?? 0;
  const [view, setView] = useState<TwoFactorRequirementView>();
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    if (level < READ_LEVEL) return;
    try {
      setView(await twoFactorApi.requirement());
    } catch (err) {
      for (const message of errorDescriptions(err)) notify(message, { type: 'error' });
    }
  }, [level, notify]);
  useEffect(() => {
    void load();
  }, [load, session?.workspace.workspaceId]);

  if (level < READ_LEVEL || !view) return null;
  const missing = view.members.filter((m) => !m.enabled);

  const toggle = async (required: boolean) => {
    setBusy(true);
    try {
      setView(await twoFactorApi.setRequirement({ required }));
      notify(required ? t.required : t.notRequired, { type: 'success' });
    } catch (err) {
      for (const message of errorDescriptions(err)) notify(message, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box component="section" aria-labelledby="two-factor-requirement-title" sx={{ mt: 4 }}>
      <Divider sx={{ mb: 2 }} />
      <Typography id="two-factor-requirement-title" variant="h6" component="h2" sx={{ mb: 1 }}>
        {twoFactorTexts.name}
      </Typography>
      <FormControlLabel
        control={<Switch checked={view.required} disabled={busy || level < OWNER} onChange={(e) => void toggle(e.target.checked)} />}
        label={t.label}
      />
      <FormHelperText>{level < OWNER ? t.ownerOnly : t.help}</FormHelperText>
      <Alert severity={missing.length ? (view.required ? 'warning' : 'info') : 'success'} sx={{ mt: 1 }}>
        {missing.length ? format(t.missing, { count: missing.length, names: missing.map((m) => m.name).join(', ') }) : t.allSet}
      </Alert>
    </Box>
  );
}
