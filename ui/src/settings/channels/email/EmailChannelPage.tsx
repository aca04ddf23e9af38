import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import Typography from '@mui/material/Typography';
import { EmailChannelSchema } from '../../../../../api/channels/email/schema';
import { zodResolver } from '../../../forms/zodResolver';
import { FormTextField } from '../../../forms/FormTextField';
import type { Channel } from '../channelsApi';
import { useChannelCreate } from '../channelPage';
import { ChannelAddForm, ChannelCopyField, ChannelSavedPanel } from '../ChannelPageParts';
import { texts } from '../../../i18n/ptBR';

const t = texts.channels.email;

type EmailForm = z.input<typeof EmailChannelSchema>;

/**
 * /settings/channels/add/email: a new e-mail channel from its description (docs/channels/email.md). The
 * API generates the forwarding address; it is shown with a copy button and how to forward a mailbox to it.
 */
export function EmailChannelPage() {
  const { saved, create } = useChannelCreate<Channel>('/integrations/mail', t.saved);
  const { control, handleSubmit, setError, formState } = useForm<EmailForm>({
    resolver: zodResolver(EmailChannelSchema),
    defaultValues: { description: '' },
  });

  const submit = handleSubmit((values) => create(values, ['description'], setError));

  if (saved) {
    return (
      <ChannelSavedPanel title={saved.description ?? t.newTitle} savedText={t.saved} backLabel={t.back}>
        <ChannelCopyField id="email-forwarding-address" label={t.address} value={saved.identifier} />
        <Typography variant="body2" sx={{ mt: 1 }}>
          {t.instructions}
        </Typography>
      </ChannelSavedPanel>
    );
  }

  return (
    <ChannelAddForm title={t.newTitle} help={t.help} onSubmit={submit} submitLabel={t.save} submitting={formState.isSubmitting}>
      <FormTextField control={control} name="description" label={t.description} required slotProps={{ htmlInput: { maxLength: 120 } }} />
    </ChannelAddForm>
  );
}
