import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { ResetPasswordSchema, type ResetPasswordReq } from '../../../api/auth/schema';
import { texts } from '../i18n/ptBR';
import { FormTextField } from '../forms/FormTextField';
import { zodResolver } from '../forms/zodResolver';
import { applyServerErrors, hiddenFieldErrors } from '../forms/serverErrors';
import { AuthCard, AuthNotice, FormSubmit } from './AuthCard';
import { authApi } from './authApi';

const t = texts.auth;

/** /user/reset?token&email: new password and its confirmation (SPEC §5: at least 5, equal). */
export function ResetPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const email = params.get('email') ?? '';
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const { control, handleSubmit, setError, formState } = useForm<ResetPasswordReq>({
    resolver: zodResolver(ResetPasswordSchema),
    defaultValues: { newPassword: '', confirmNewPassword: '', token, email },
  });
  const visible = ['newPassword', 'confirmNewPassword'];
  const submit = handleSubmit(
    async (values) => {
      setFormErrors([]);
      try {
        await authApi.resetPassword(values);
        await navigate('/user/reset/success', { replace: true });
      } catch (err) {
        setFormErrors(applyServerErrors(err, visible, setError));
      }
    },
    (errors) => setFormErrors(hiddenFieldErrors(errors, visible)),
  );

  if (!token || !email) {
    return (
      <AuthCard title={t.reset.title}>
        <Alert severity="error">{t.reset.invalidLink}</Alert>
        <Button component={RouterLink} to="/user/forgot" variant="contained" fullWidth sx={{ mt: 2 }}>
          {t.forgot.submit}
        </Button>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t.reset.title} subtitle={email}>
      <form onSubmit={submit} noValidate>
        <FormTextField control={control} name="newPassword" label={t.reset.newPassword} type="password" autoComplete="new-password" required autoFocus />
        <FormTextField control={control} name="confirmNewPassword" label={t.reset.confirmNewPassword} type="password" autoComplete="new-password" required />
        <FormSubmit errors={formErrors} submitting={formState.isSubmitting}>
          {t.reset.submit}
        </FormSubmit>
      </form>
    </AuthCard>
  );
}

export function ResetSuccessPage() {
  return (
    <AuthNotice title={t.resetSuccess.title} subtitle={t.resetSuccess.text} to="/" action={texts.common.ok} />
  );
}
