import { useCallback, useEffect, useState } from 'react';
import { useNotify } from 'react-admin';
import { useNavigate } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { format } from '../../i18n/format';
import { getSession, storeSessionResponse } from '../../providers/session';
import { BackupCodes } from './BackupCodes';
import { CodeForm } from './CodeForm';
import { TwoFactorSetup } from './TwoFactorSetup';
import { twoFactorApi, type TwoFactorStatusView } from './twoFactorApi';
import { twoFactorTexts } from './twoFactorTexts';

const t = twoFactorTexts;
type Open = 'setup' | 'disable' | 'regenerate' | undefined;
/** Below this many backup codes the section suggests new ones. */
const FEW_CODES = 3;

const dateFormat = new Intl.DateTimeFormat('pt-BR', { day: '2-digit', month: '2-digit', year: 'numeric' });

/**
 * The profile's "Verificação em duas etapas" (docs/two-factor.md): its state, and dialogs to turn it on
 * (QR code, first code, backup codes shown once), off (a current code or a backup code) and to replace the
 * backup codes. Turning it on ends the person's other sessions: the fresh session it answers replaces ours.
 * In a workspace that requires it, "Desativar" becomes "Trocar de celular ou aplicativo": it signs out
 * everywhere and the next login sets the new app up.
 */
export function TwoFactorSection() {
  const notify = useNotify();
  const navigate = useNavigate();
  const [status, setStatus] = useState<TwoFactorStatusView>();
  const [loadFailed, setLoadFailed] = useState(false);
  const [open, setOpen] = useState<Open>();
  const [codes, setCodes] = useState<string[]>();

  const load = useCallback(async () => {
    try {
      setStatus(await twoFactorApi.status());
      setLoadFailed(false);
    } catch {
      setLoadFailed(true);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const close = () => {
    setOpen(undefined);
    setCodes(undefined);
  };

  const enable = async (code: string) => {
    const result = await twoFactorApi.enable(code);
    storeSessionResponse(result.session);
    setCodes(result.backupCodes);
    notify(t.section.enabled, { type: 'success' });
    void load();
  };
  const disable = async (code: string) => {
    const result = await twoFactorApi.disable(code);
    // A workspace requires it: every session ended, the next login sets the new app up.
    if (result.signedOut) return void navigate('/user/logout', { replace: true });
    setStatus(result);
    close();
    notify(t.section.disabled, { type: 'info' });
  };
  const regenerate = async (code: string) => {
    setCodes((await twoFactorApi.newBackupCodes(code)).backupCodes);
    void load();
  };

  const required = status?.requiredBy ?? [];
  const requiredNames = required.map((w) => w.workspace).join(', ');
  const email = getSession()?.user.email;
  const disableTexts = required.length ? { title: t.changeApp.title, text: format(t.changeApp.text, { names: requiredNames }), submit: t.changeApp.submit } : t.disable;

  return (
    <Box component="section" aria-labelledby="two-factor-title" sx={{ mt: 4 }}>
      <Divider sx={{ mb: 2 }} />
      <Typography id="two-factor-title" variant="h6" component="h2" sx={{ mb: 1 }}>
        {t.name}
      </Typography>
      {loadFailed ? <Alert severity="error">{t.section.loadError}</Alert> : null}
      {status ? (
        <>
          <Typography color="text.secondary" data-testid="two-factor-state">
            {status.enabled && status.enabledAt ? format(t.section.on, { date: dateFormat.format(new Date(status.enabledAt)) }) : t.section.off}
          </Typography>
          {status.enabled ? (
            <Typography variant="body2" sx={{ mt: 1 }}>
              {format(t.section.codesLeft, { count: status.backupCodesLeft })}
            </Typography>
          ) : null}
          {status.enabled && status.backupCodesLeft <= FEW_CODES ? (
            <Alert severity="warning" sx={{ mt: 1 }}>
              {t.section.fewCodesLeft}
            </Alert>
          ) : null}
          {required.length ? (
            <Alert severity="info" sx={{ mt: 1 }}>
              {format(t.section.requiredBy, { names: requiredNames })}
            </Alert>
          ) : null}
          <Stack direction="row" gap={1} flexWrap="wrap" sx={{ mt: 2 }}>
            {status.enabled ? (
              <>
                <Button variant="outlined" onClick={() => setOpen('regenerate')}>
                  {t.section.newCodes}
                </Button>
                <Button color={required.length ? 'primary' : 'error'} onClick={() => setOpen('disable')}>
                  {required.length ? t.section.changeApp : t.section.disable}
                </Button>
              </>
            ) : (
              <Button variant="contained" onClick={() => setOpen('setup')}>
                {t.section.enable}
              </Button>
            )}
          </Stack>
        </>
      ) : null}

      <Dialog open={open !== undefined} onClose={codes ? undefined : close} fullWidth maxWidth="sm" aria-labelledby="two-factor-dialog-title">
        <DialogTitle id="two-factor-dialog-title">
          {codes ? t.backup.title : open === 'setup' ? t.setup.title : open === 'disable' ? disableTexts.title : t.regenerate.title}
        </DialogTitle>
        <DialogContent>
          {codes ? (
            <BackupCodes codes={codes} email={email} onDone={close} />
          ) : open === 'setup' ? (
            <TwoFactorSetup start={twoFactorApi.setup} confirm={enable} />
          ) : open ? (
            <>
              <Typography sx={{ mb: 1 }}>{open === 'disable' ? disableTexts.text : t.regenerate.text}</Typography>
              <CodeForm
                kind="any"
                label={t.code}
                submitLabel={open === 'disable' ? disableTexts.submit : t.regenerate.submit}
                onSubmit={open === 'disable' ? disable : regenerate}
              />
            </>
          ) : null}
        </DialogContent>
        {codes ? null : (
          <DialogActions>
            <Button onClick={close}>{t.cancel}</Button>
          </DialogActions>
        )}
      </Dialog>
    </Box>
  );
}
