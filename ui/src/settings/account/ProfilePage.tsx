import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNotify } from 'react-admin';
import { ProfileUpdateSchema } from '../../../../api/auth/schema';
import { texts } from '../../i18n/ptBR';
import { FormTextField } from '../../forms/FormTextField';
import { zodResolver } from '../../forms/zodResolver';
import { applyServerErrors, failureToasts } from '../../forms/serverErrors';
import { getSession, updateUser } from '../../providers/session';
import { SettingsPage } from '../SettingsPage';
import { accountApi } from './accountApi';
import { AvatarUpload } from './AvatarUpload';
import { NotificationsSection } from '../../pwa/NotificationsSection';
import { TwoFactorSection } from '../../auth/twoFactor/TwoFactorSection';
import { useLiveLoad } from '../../common/useLiveLoad';
import { SaveThenLink } from '../common/FormActions';

const t = texts.settings.profile;

interface ProfileForm {
  name: string;
  phone: string;
  email: string;
}

/** /settings/account/profile: name required, phone, e-mail read-only. */
export function ProfilePage() {
  const notify = useNotify();
  const user = getSession()?.user;
  const [avatar, setAvatar] = useState(user?.avatar ?? null);
  const { control, handleSubmit, setError, reset, formState } = useForm<ProfileForm>({
    resolver: zodResolver(ProfileUpdateSchema),
    defaultValues: { name: user?.name ?? '', phone: user?.phone ?? '', email: user?.email ?? '' },
  });

  useLiveLoad(
    accountApi.profile,
    (profile) => {
      updateUser({ name: profile.name, phone: profile.phone, email: profile.email, verificationLevel: profile.verificationLevel });
      reset({ name: profile.name, phone: profile.phone ?? '', email: profile.email });
    },
    () => undefined,
    [reset],
  );

  const submit = handleSubmit(async (values) => {
    const body = { name: values.name, phone: values.phone || null };
    try {
      await accountApi.updateProfile(body);
      updateUser(body);
      reset({ ...values, name: body.name, phone: body.phone ?? '' });
      notify(t.saved, { type: 'success' });
    } catch (err) {
      applyServerErrors(err, ['name', 'phone'], setError);
      for (const message of failureToasts(err, t.error)) notify(message, { type: 'error' });
    }
  });

  return (
    <SettingsPage title={t.title}>
      <AvatarUpload
        path="/operators/avatar"
        name={user?.name ?? ''}
        avatar={avatar}
        onUploaded={(url) => {
          setAvatar(url);
          updateUser({ avatar: url });
        }}
      />
      <form onSubmit={submit} noValidate>
        <FormTextField control={control} name="name" label={t.name} autoComplete="name" required />
        <FormTextField control={control} name="phone" label={t.phone} type="tel" autoComplete="tel" />
        <FormTextField control={control} name="email" label={t.email} type="email" helperText={t.emailHelp} slotProps={{ input: { readOnly: true } }} />
        <SaveThenLink saving={formState.isSubmitting} to="/settings/account/profile/password" label={t.changePassword} />
      </form>
      <TwoFactorSection />
      <NotificationsSection />
    </SettingsPage>
  );
}
