import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { CompleteRegisterSchema, type CompleteRegisterReq } from '../../../api/auth/schema';
import { texts } from '../i18n/ptBR';
import { format } from '../i18n/format';
import { FormTextField } from '../forms/FormTextField';
import { zodResolver } from '../forms/zodResolver';
import { applyServerErrors, hiddenFieldErrors } from '../forms/serverErrors';
import { saveLogin } from '../providers/session';
import { AuthCard, FormSubmit } from './AuthCard';
import { authApi } from './authApi';
import { holdLogin, peekHeldLogin, takeHeldLogin } from './pendingLogin';
import { holdChallenge, isChallenge } from './twoFactor/twoFactorApi';

const t = texts.auth;

/** /user/join/register?token&name&email: a new person completes the invitation. */
export function JoinRegisterPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const { control, handleSubmit, setError, formState } = useForm<CompleteRegisterReq>({
    resolver: zodResolver(CompleteRegisterSchema),
    defaultValues: { name: params.get('name') ?? '', email: params.get('email') ?? '', password: '', token },
  });
  const visible = ['name', 'email', 'password'];
  const submit = handleSubmit(
    async (values) => {
      setFormErrors([]);
      try {
        const data = await authApi.completeRegister(values);
        if (isChallenge(data)) {
          // The workspace requires two-factor login (or the account has it): that step before the session.
          holdChallenge(data.twoFactor);
          await navigate('/user/two-factor', { replace: true });
          return;
        }
        holdLogin(data);
        await navigate('/user/join/register/success', { replace: true });
      } catch (err) {
        setFormErrors(applyServerErrors(err, visible, setError));
      }
    },
    (errors) => setFormErrors(hiddenFieldErrors(errors, visible)),
  );

  if (!token) {
    return (
      <AuthCard title={t.joinRegister.title}>
        <Alert severity="error">{t.joinRegister.invalidLink}</Alert>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t.joinRegister.title} subtitle={t.joinRegister.text}>
      <form onSubmit={submit} noValidate>
        <FormTextField control={control} name="name" label={t.joinRegister.name} autoComplete="name" required autoFocus />
        <FormTextField control={control} name="email" label={t.email} type="email" autoComplete="email" required />
        <FormTextField control={control} name="password" label={t.password} type="password" autoComplete="new-password" required />
        <FormSubmit errors={formErrors} submitting={formState.isSubmitting}>
          {t.joinRegister.submit}
        </FormSubmit>
      </form>
    </AuthCard>
  );
}

/** /user/join/register/success: shows the name and the workspace; entering stores the session. */
export function JoinRegisterSuccessPage() {
  const navigate = useNavigate();
  const [held] = useState(() => peekHeldLogin());
  if (!held) {
    return (
      <AuthCard title={t.joinRegisterSuccess.title}>
        <Typography>{t.joinRegisterSuccess.expired}</Typography>
        <Button component={RouterLink} to="/user/login" variant="contained" fullWidth sx={{ mt: 2 }}>
          {t.login.submit}
        </Button>
      </AuthCard>
    );
  }
  const enter = () => {
    const data = takeHeldLogin() ?? held;
    saveLogin(data);
    void navigate('/inbox/all', { replace: true });
  };
  return (
    <AuthCard title={t.joinRegisterSuccess.title}>
      <Typography sx={{ my: 2 }}>{format(t.joinRegisterSuccess.text, { name: held.user.name, workspace: held.workspace.workspace })}</Typography>
      <Button variant="contained" size="large" fullWidth onClick={enter}>
        {t.joinRegisterSuccess.enter}
      </Button>
    </AuthCard>
  );
}
