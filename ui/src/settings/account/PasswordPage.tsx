import { useForm } from 'react-hook-form';
import { useNotify } from 'react-admin';
import { ChangePasswordSchema, type ChangePasswordReq } from '../../../../api/auth/schema';
import { texts } from '../../i18n/ptBR';
import { FormTextField } from '../../forms/FormTextField';
import { zodResolver } from '../../forms/zodResolver';
import { applyServerErrors, failureToasts } from '../../forms/serverErrors';
import { storeSessionResponse } from '../../providers/session';
import { SettingsPage } from '../SettingsPage';
import { accountApi } from './accountApi';
import { SaveThenLink } from '../common/FormActions';

const t = texts.settings.password;
const EMPTY: ChangePasswordReq = { password: '', newPassword: '', confirmNewPassword: '' };

/**
 * /settings/account/profile/password. A password change invalidates older tokens, so the fresh
 * session it answers replaces ours at once.
 */
export function PasswordPage() {
  const notify = useNotify();
  const { control, handleSubmit, setError, reset, formState } = useForm<ChangePasswordReq>({
    resolver: zodResolver(ChangePasswordSchema),
    defaultValues: EMPTY,
  });
  const submit = handleSubmit(async (values) => {
    try {
      const data = await accountApi.changePassword(values);
      if (data) storeSessionResponse(data);
      reset(EMPTY);
      notify(t.saved, { type: 'success' });
    } catch (err) {
      applyServerErrors(err, ['password', 'newPassword', 'confirmNewPassword'], setError);
      for (const message of failureToasts(err)) notify(message, { type: 'error' });
    }
  });
  return (
    <SettingsPage title={t.title}>
      <form onSubmit={submit} noValidate>
        <FormTextField control={control} name="password" label={t.current} type="password" autoComplete="current-password" required autoFocus />
        <FormTextField control={control} name="newPassword" label={t.newPassword} type="password" autoComplete="new-password" required />
        <FormTextField control={control} name="confirmNewPassword" label={t.confirmNewPassword} type="password" autoComplete="new-password" required />
        <SaveThenLink saving={formState.isSubmitting} to="/settings/account/profile" label={t.back} />
      </form>
    </SettingsPage>
  );
}
