import { useCallback, useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { texts } from '../../i18n/ptBR';
import { format } from '../../i18n/format';
import { saveLogin, type LoginData } from '../../providers/session';
import { AuthCard, AuthNotice } from '../AuthCard';
import { returnPath } from '../LoginPage';
import { BackupCodes } from './BackupCodes';
import { CodeForm } from './CodeForm';
import { TwoFactorSetup } from './TwoFactorSetup';
import { dropChallenge, heldChallenge, twoFactorApi, type TwoFactorEnabledView } from './twoFactorApi';
import { twoFactorTexts } from './twoFactorTexts';

const t = twoFactorTexts;

/**
 * /user/two-factor: the step after a right password (docs/two-factor.md). 'code': the app's code, or a
 * backup code behind a link. 'setup': the workspace requires two-factor login, so the member sets it up here
 * (QR code, first code, backup codes) before any session exists. Reached only from the login or invitation
 * page, which hands the challenge over in memory; opened any other way it sends back to the login.
 */
export function TwoFactorLoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const [challenge] = useState(heldChallenge);
  const [useBackup, setUseBackup] = useState(false);
  const [enabled, setEnabled] = useState<TwoFactorEnabledView>();

  const finish = useCallback(
    async (session: LoginData) => {
      dropChallenge();
      saveLogin(session);
      await navigate(returnPath(location.state), { replace: true });
    },
    [navigate, location.state],
  );
  const token = challenge?.challengeToken ?? '';
  const startSetup = useCallback(() => twoFactorApi.loginSetup(token), [token]);

  if (!challenge) return <AuthNotice title={t.login.title} subtitle={t.login.expired} to="/user/login" action={texts.auth.backToLogin} />;

  const back = (
    <Typography sx={{ mt: 2 }}>
      <Link component={RouterLink} to="/user/login" onClick={dropChallenge}>
        {texts.auth.backToLogin}
      </Link>
    </Typography>
  );

  if (challenge.step === 'code') {
    return (
      <AuthCard title={t.login.title} subtitle={useBackup ? t.login.backupText : t.login.text}>
        <CodeForm
          key={useBackup ? 'backup' : 'app'}
          kind="any"
          label={useBackup ? t.login.backupLabel : t.code}
          submitLabel={t.login.submit}
          onSubmit={async (code) => finish(await twoFactorApi.loginCode(token, code))}
        >
          <Link component="button" type="button" variant="body2" onClick={() => setUseBackup((v) => !v)} sx={{ mt: 1 }}>
            {useBackup ? t.login.useApp : t.login.useBackup}
          </Link>
        </CodeForm>
        {back}
      </AuthCard>
    );
  }

  if (enabled) {
    return (
      <AuthCard title={t.backup.title}>
        <BackupCodes codes={enabled.backupCodes} email={enabled.session.user.email} doneLabel={t.loginSetup.enter} onDone={() => void finish(enabled.session)} />
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t.loginSetup.title} subtitle={format(t.loginSetup.text, { workspace: challenge.workspace })}>
      <TwoFactorSetup start={startSetup} confirm={async (code) => setEnabled(await twoFactorApi.loginEnable(token, code))} />
      {back}
    </AuthCard>
  );
}
