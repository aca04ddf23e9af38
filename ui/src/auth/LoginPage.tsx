import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { LoginSchema, type LoginReq } from '../../../api/auth/schema';
import { texts } from '../i18n/ptBR';
import { FormTextField } from '../forms/FormTextField';
import { zodResolver } from '../forms/zodResolver';
import { applyServerErrors } from '../forms/serverErrors';
import { saveLogin } from '../providers/session';
import { AuthCard, FormSubmit } from './AuthCard';
import { authApi } from './authApi';
import { holdChallenge, isChallenge } from './twoFactor/twoFactorApi';

const t = texts.auth;

/** Where to go after login: back to the app page that sent the visitor here, else the inbox. */
export function returnPath(state: unknown): string {
  const from = (state as { from?: string } | null)?.from;
  return from && from.startsWith('/') && !from.startsWith('/user') ? from : '/inbox';
}

export function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const { control, handleSubmit, setError, formState } = useForm<LoginReq>({
    resolver: zodResolver(LoginSchema),
    defaultValues: { email: '', password: '' },
  });

  const submit = handleSubmit(async (values) => {
    setFormErrors([]);
    try {
      const data = await authApi.login(values);
      if (isChallenge(data)) {
        // The password was right; the code (or the setup a workspace requires) comes next, same return path.
        holdChallenge(data.twoFactor);
        await navigate('/user/two-factor', { state: location.state });
        return;
      }
      saveLogin(data);
      await navigate(returnPath(location.state), { replace: true });
    } catch (err) {
      setFormErrors(applyServerErrors(err, ['email', 'password'], setError));
    }
  });

  return (
    <AuthCard title={t.login.title}>
      <form onSubmit={submit} noValidate>
        <FormTextField control={control} name="email" label={t.email} type="email" autoComplete="email" required autoFocus />
        <FormTextField control={control} name="password" label={t.password} type="password" autoComplete="current-password" required />
        <FormSubmit errors={formErrors} submitting={formState.isSubmitting}>
          {t.login.submit}
        </FormSubmit>
      </form>
      <Stack direction="row" justifyContent="space-between" sx={{ mt: 2 }} flexWrap="wrap" gap={1}>
        <Link component={RouterLink} to="/user/forgot">
          {t.login.forgot}
        </Link>
        <Link component={RouterLink} to="/user/register">
          {t.login.register}
        </Link>
      </Stack>
    </AuthCard>
  );
}
