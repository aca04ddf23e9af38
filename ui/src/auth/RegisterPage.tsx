import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Link from '@mui/material/Link';
import { SignupSchema } from '../../../api/auth/schema';
import { texts } from '../i18n/ptBR';
import { FormTextField } from '../forms/FormTextField';
import { zodResolver } from '../forms/zodResolver';
import { applyServerErrors } from '../forms/serverErrors';
import { AuthCard, FormSubmit } from './AuthCard';
import { authApi } from './authApi';
import { holdLogin } from './pendingLogin';

const t = texts.auth;

interface RegisterForm {
  name: string;
  workspace: string;
  email: string;
  password: string;
  acceptTerms: boolean;
}

/**
 * /user/register: the account is created here (so server errors land on the fields), then the
 * "creating" screen plays before the session is stored (SPEC §2).
 */
export function RegisterPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const { control, handleSubmit, setError, formState, watch } = useForm<RegisterForm>({
    resolver: zodResolver(SignupSchema),
    defaultValues: { name: '', workspace: '', email: params.get('email') ?? '', password: '', acceptTerms: false },
  });
  const accepted = watch('acceptTerms');

  const submit = handleSubmit(async (values) => {
    setFormErrors([]);
    try {
      const data = await authApi.signup({ ...values, acceptTerms: true });
      holdLogin(data);
      await navigate('/user/register/creating', { replace: true });
    } catch (err) {
      setFormErrors(applyServerErrors(err, ['name', 'workspace', 'email', 'password', 'acceptTerms'], setError));
    }
  });

  return (
    <AuthCard title={t.register.title} subtitle={t.register.subtitle}>
      <form onSubmit={submit} noValidate>
        <FormTextField control={control} name="name" label={t.register.name} autoComplete="name" required autoFocus />
        <FormTextField control={control} name="workspace" label={t.register.workspace} autoComplete="organization" required />
        <FormTextField control={control} name="email" label={t.register.email} type="email" autoComplete="email" required />
        <FormTextField control={control} name="password" label={t.password} type="password" autoComplete="new-password" required />
        <Controller
          control={control}
          name="acceptTerms"
          render={({ field, fieldState }) => (
            <>
              <FormControlLabel
                sx={{ mt: 1 }}
                control={
                  <Checkbox
                    id="field-acceptTerms"
                    name={field.name}
                    checked={field.value}
                    onChange={(e) => field.onChange(e.target.checked)}
                    onBlur={field.onBlur}
                    inputRef={field.ref}
                    slotProps={{ input: { 'aria-describedby': fieldState.error ? 'field-acceptTerms-error' : undefined } }}
                  />
                }
                label={t.register.acceptTerms}
              />
              {fieldState.error ? (
                <FormHelperText id="field-acceptTerms-error" error>
                  {fieldState.error.message}
                </FormHelperText>
              ) : null}
            </>
          )}
        />
        <FormSubmit errors={formErrors} submitting={formState.isSubmitting} disabled={!accepted}>
          {t.register.submit}
        </FormSubmit>
      </form>
      <Link component={RouterLink} to="/user/login" sx={{ display: 'inline-block', mt: 2 }}>
        {t.register.hasAccount}
      </Link>
    </AuthCard>
  );
}
