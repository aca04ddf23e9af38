import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useNotify } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import TextField from '@mui/material/TextField';
import OpenInNew from '@mui/icons-material/OpenInNew';
import { WidgetChannelSchema } from '../../../../../api/channels/widget/schema';
import { texts } from '../../../i18n/ptBR';
import { format } from '../../../i18n/format';
import { zodResolver } from '../../../forms/zodResolver';
import { applyServerErrors, failureToasts } from '../../../forms/serverErrors';
import { errorDescriptions } from '../../../providers/httpClient';
import { SettingsPage } from '../../SettingsPage';
import { FormActions } from '../../common';
import { channelsApi, installSnippet, type WidgetChannel as Channel } from '../channelsApi';
import { channelsKey } from '../ChannelListPage';
import { InstallSnippet } from './InstallSnippet';
import { useChannelDelete } from '../channelPage';
import { BackToChannels, ChannelDeleteConfirm } from '../ChannelPageParts';
import { WidgetChannelInputs, type WidgetChannelForm } from './WidgetChannelInputs';
import { WidgetPreview } from './WidgetPreview';
import { WIDGET_DEFAULTS } from '../../../../../api/channels/widget/schema';
import { getSession } from '../../../providers/session';
import { CsatSettingsSection } from '../../../csat/CsatSettingsSection';

const t = texts.channels.widget;
const DEFAULT_COLOR = '#0F766E';
const FIELDS = ['description', 'avatar', ...Object.keys(WIDGET_DEFAULTS)];

/** The form's values of a saved widget (or of a new one). */
function formOf(channel?: Channel): WidgetChannelForm {
  if (!channel) return { description: '', avatar: DEFAULT_COLOR, ...WIDGET_DEFAULTS, preChat: { ...WIDGET_DEFAULTS.preChat }, allowedSites: [] };
  return {
    description: channel.description,
    avatar: channel.avatar ?? DEFAULT_COLOR,
    greeting: channel.greeting ?? WIDGET_DEFAULTS.greeting,
    tagline: channel.tagline ?? WIDGET_DEFAULTS.tagline,
    logo: channel.logo ?? null,
    position: channel.position ?? 'right',
    preChat: { ...WIDGET_DEFAULTS.preChat, ...channel.preChat },
    showResponseTime: channel.showResponseTime ?? true,
    businessHoursId: channel.businessHoursId ?? null,
    outOfHoursMessage: channel.outOfHoursMessage ?? WIDGET_DEFAULTS.outOfHoursMessage,
    allowedSites: channel.allowedSites ?? [],
  };
}

/**
 * /settings/channels/add/chat-widget (no id) and /settings/channels/chat-widget/:id: description and main
 * colour; once saved, the generated identifier and the install code to copy.
 */
export function WidgetChannelPage() {
  const { id: rawId } = useParams();
  const id = rawId && /^\d+$/.test(rawId) ? Number(rawId) : undefined;
  const isNew = rawId === undefined;
  const notify = useNotify();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const { data: channel, error } = useQuery({
    queryKey: [...channelsKey, 'widget', id],
    queryFn: () => channelsApi.getWidget(id!),
    enabled: id !== undefined,
    retry: false,
  });
  const { control, handleSubmit, setError, reset, formState } = useForm<WidgetChannelForm>({
    resolver: zodResolver(WidgetChannelSchema),
    defaultValues: formOf(),
  });
  useEffect(() => {
    if (channel) reset(formOf(channel));
  }, [channel, reset]);

  const saved = (row: Channel) => {
    queryClient.setQueryData([...channelsKey, 'widget', row.id], row);
    void queryClient.invalidateQueries({ queryKey: channelsKey, exact: true });
    notify(t.saved, { type: 'success' });
  };

  const submit = handleSubmit(async (values) => {
    try {
      if (isNew) {
        const row = await channelsApi.createWidget(values);
        saved(row);
        void navigate(`/settings/channels/chat-widget/${row.id}`, { replace: true });
      } else if (id !== undefined) {
        const row = await channelsApi.updateWidget(id, values);
        reset(formOf(row));
        saved(row);
      }
    } catch (err) {
      applyServerErrors(err, FIELDS as (keyof WidgetChannelForm)[], setError);
      for (const message of failureToasts(err)) notify(message, { type: 'error' });
    }
  });

  const deletion = useChannelDelete({ queryKey: [...channelsKey, 'widget', id], del: () => channelsApi.deleteWidget(id!), deletedText: t.deleted });

  if (!isNew && (id === undefined || error)) {
    return (
      <SettingsPage title={t.editTitle}>
        <Alert severity="error">{id === undefined ? texts.common.notFound : errorDescriptions(error).join(' ')}</Alert>
        <BackToChannels label={t.back} />
      </SettingsPage>
    );
  }

  return (
    <SettingsPage title={isNew ? t.newTitle : t.editTitle} maxWidth={960}>
      {!isNew && !channel ? <LinearProgress aria-label={texts.common.loading} sx={{ mb: 2 }} /> : null}
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(0, 1fr) 340px' }, gap: { xs: 2, lg: 4 }, alignItems: 'start' }}>
        <form onSubmit={submit} noValidate>
          <WidgetChannelInputs control={control} />
          {channel ? (
            <TextField
              id="field-identifier"
              label={t.identifier}
              value={channel.identifier}
              helperText={t.identifierHelp}
              fullWidth
              margin="normal"
              slotProps={{ htmlInput: { readOnly: true } }}
            />
          ) : null}
          <Box sx={{ mt: 2 }}>
            <FormActions back={{ label: texts.common.cancel, to: '/settings/channels' }} onDelete={channel ? deletion.ask : undefined} deleteLabel={t.delete} saving={formState.isSubmitting} />
          </Box>
        </form>
        <WidgetPreview control={control} company={getSession()?.workspace.workspace ?? ''} />
      </Box>
      {channel ? (
        <>
          <InstallSnippet snippet={installSnippet(channel.identifier)} />
          <Link
            href={`/widget?workspacePlatformIdentifier=${encodeURIComponent(channel.identifier)}`}
            target="_blank"
            rel="noopener"
            sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, mt: 1 }}
          >
            {t.test}
            <OpenInNew fontSize="small" />
          </Link>
          <CsatSettingsSection channelId={channel.id} />
          <ChannelDeleteConfirm deletion={deletion} title={t.deleteTitle} content={format(t.deleteConfirm, { name: channel.description })} confirm={t.delete} />
        </>
      ) : null}
    </SettingsPage>
  );
}
