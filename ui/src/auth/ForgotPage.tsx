import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link as RouterLink, useNavigate } from 'react-router';
import Link from '@mui/material/Link';
import { ForgotPasswordSchema, type ForgotPasswordReq } from '../../../api/auth/schema';
import { texts } from '../i18n/ptBR';
import { FormTextField } from '../forms/FormTextField';
import { zodResolver } from '../forms/zodResolver';
import { applyServerErrors } from '../forms/serverErrors';
import { AuthCard, AuthNotice, FormSubmit } from './AuthCard';
import { authApi } from './authApi';

const t = texts.auth;

/** /user/forgot → /user/forgot/sent (SPEC §4: request, sent, reset, success). */
export function ForgotPage() {
  const navigate = useNavigate();
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const { control, handleSubmit, setError, formState } = useForm<ForgotPasswordReq>({
    resolver: zodResolver(ForgotPasswordSchema),
    defaultValues: { email: '' },
  });
  const submit = handleSubmit(async (values) => {
    setFormErrors([]);
    try {
      await authApi.forgotPassword(values);
      await navigate('/user/forgot/sent');
    } catch (err) {
      setFormErrors(applyServerErrors(err, ['email'], setError));
    }
  });
  return (
    <AuthCard title={t.forgot.title} subtitle={t.forgot.text}>
      <form onSubmit={submit} noValidate>
        <FormTextField control={control} name="email" label={t.email} type="email" autoComplete="email" required autoFocus />
        <FormSubmit errors={formErrors} submitting={formState.isSubmitting}>
          {t.forgot.submit}
        </FormSubmit>
      </form>
      <Link component={RouterLink} to="/user/login" sx={{ display: 'inline-block', mt: 2 }}>
        {t.backToLogin}
      </Link>
    </AuthCard>
  );
}

export function ForgotSentPage() {
  return (
    <AuthNotice title={t.forgotSent.title} subtitle={t.forgotSent.text} to="/user/login" action={t.backToLogin} />
  );
}
