import { useEffect, useRef, useState } from 'react';
import { QRCodeSVG } from 'qrcode.react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { errorDescriptions } from '../../providers/httpClient';
import { CodeForm } from './CodeForm';
import { twoFactorTexts } from './twoFactorTexts';
import type { SetupData } from './twoFactorApi';

const t = twoFactorTexts.setup;
/** SPEC §9 gives 256 px for QR codes. */
const QR_SIZE = 256;

/** The secret as authenticator apps print it: groups of four. */
function grouped(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

/**
 * The setup screen, from the profile or during a login the workspace requires it for: a new secret is asked
 * for once on mount, shown as a QR code (its otpauth:// URI) and as a key to type by hand, then the app's
 * first code turns two-factor login on (`confirm`).
 */
export function TwoFactorSetup({ start, confirm }: { start: () => Promise<SetupData>; confirm: (code: string) => Promise<void> }) {
  const [data, setData] = useState<SetupData>();
  const [loadErrors, setLoadErrors] = useState<string[]>([]);
  // Each start replaces the pending secret: start once per screen (StrictMode runs effects twice in development).
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    start().then(setData, (err: unknown) => setLoadErrors(errorDescriptions(err)));
  }, [start]);

  if (loadErrors.length) return <Alert severity="error">{loadErrors.join(' ')}</Alert>;
  if (!data) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
        <CircularProgress aria-label={t.qrLabel} />
      </Box>
    );
  }
  return (
    <Box>
      <Typography component="ol" sx={{ pl: 2.5, '& > li': { mb: 1.5 } }}>
        <li>{t.install}</li>
        <li>
          {t.scan}
          <Box sx={{ display: 'flex', justifyContent: 'center', my: 2 }}>
            <Box sx={{ p: 1.5, bgcolor: '#fff', borderRadius: 1, lineHeight: 0, maxWidth: '100%' }}>
              <QRCodeSVG value={data.otpauthUri} size={QR_SIZE} role="img" aria-label={t.qrLabel} style={{ maxWidth: '100%', height: 'auto' }} data-testid="two-factor-qr" />
            </Box>
          </Box>
          <Typography variant="body2" color="text.secondary">
            {t.manual}
          </Typography>
          <Typography data-testid="two-factor-secret" data-secret={data.secret} sx={{ fontFamily: 'monospace', fontSize: '1.05rem', wordBreak: 'break-all', userSelect: 'all', mt: 0.5 }}>
            {grouped(data.secret)}
          </Typography>
        </li>
        <li>{t.type}</li>
      </Typography>
      <CodeForm kind="app" label={t.codeLabel} submitLabel={t.submit} onSubmit={confirm} autoFocus={false} />
    </Box>
  );
}
