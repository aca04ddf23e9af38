import { Controller } from 'react-hook-form';
import { useNotify } from 'react-admin';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import { WebhookSettingsSchema, WEBHOOK_EVENT_NAMES } from '../../../../api/webhooks/schema';
import { texts } from '../../i18n/ptBR';
import { FormTextField } from '../../forms/FormTextField';
import { errorDescriptions } from '../../providers/httpClient';
import { ResourceScreen, SecretField, type ResourceAsideProps, type ResourceInputsProps, type ResourceScreenConfig } from '../common';
import { webhookApi, webhookSource, type WebhookEventName, type WebhookRow } from './webhookApi';
import { DeliveryLog } from './DeliveryLog';

const t = texts.webhook;

interface Form {
  webhook: string;
  email: string;
  subscriptions: Record<WebhookEventName, boolean>;
}

/** URL (https:// added when left out), e-mail and the events subscribed. */
function WebhookInputs({ control, row, disabled }: ResourceInputsProps<Form, WebhookRow>) {
  return (
    <>
      {row?.disabledAt ? (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t.disabled}
        </Alert>
      ) : null}
      <Box component="p" sx={{ mt: 0 }}>
        {t.intro}
      </Box>
      <FormTextField name="webhook" control={control} label={t.url} helperText={t.urlHelp} required disabled={disabled} autoFocus />
      <FormTextField name="email" control={control} label={t.email} type="email" disabled={disabled} />
      <FormLabel component="legend" sx={{ mt: 2 }}>
        {t.events}
      </FormLabel>
      <FormGroup>
        {WEBHOOK_EVENT_NAMES.map((event) => (
          <Controller
            key={event}
            name={`subscriptions.${event}`}
            control={control}
            render={({ field }) => (
              <FormControlLabel
                control={<Checkbox checked={!!field.value} disabled={disabled} onChange={(e) => field.onChange(e.target.checked)} />}
                label={`${t.eventNames[event]} (${event})`}
              />
            )}
          />
        ))}
      </FormGroup>
    </>
  );
}

/** The signing secret (copy, regenerate) and the delivery log with 'Reenviar'. */
function WebhookAside({ row, replaceRow }: ResourceAsideProps<WebhookRow>) {
  const notify = useNotify();
  const regenerate = async () => {
    try {
      replaceRow(await webhookApi.regenerateSecret());
    } catch (err) {
      for (const message of errorDescriptions(err)) notify(message, { type: 'error' });
    }
  };
  return (
    <>
      <SecretField id="field-secret" label={t.secret} value={row.secret} helperText={t.secretHelp} regenerateLabel={t.regenerate} confirmText={t.regenerateConfirm} onRegenerate={regenerate} />
      <DeliveryLog />
    </>
  );
}

const subscribed = (row: WebhookRow) =>
  WEBHOOK_EVENT_NAMES.filter((e) => row.subscriptions[e])
    .map((e) => t.eventNames[e])
    .join(', ');

const config: ResourceScreenConfig<WebhookRow, Form> = {
  path: '/settings/webhook',
  endpoint: '/webhook',
  source: webhookSource,
  single: true,
  title: t.title,
  newLabel: t.add,
  newTitle: t.newTitle,
  editTitle: () => t.title,
  empty: t.empty,
  // The secret and the delivery log live with the form: a page of its own.
  detail: 'page',
  columns: [
    { label: t.listColumns.url, render: (row) => row.webhook },
    { label: t.listColumns.events, render: subscribed },
    { label: t.listColumns.state, render: (row) => (row.disabledAt ? t.states.disabled : t.states.active) },
  ],
  schema: WebhookSettingsSchema,
  toForm: (row) => ({
    webhook: row?.webhook ?? '',
    email: row?.email ?? '',
    subscriptions: { 'message:received': false, 'session:status:changed': false, 'person:changed': false, 'csat:received': false, ...row?.subscriptions },
  }),
  fields: ['webhook', 'email'],
  Inputs: WebhookInputs,
  Aside: WebhookAside,
  toasts: { created: t.saved, updated: t.saved },
};

/** /settings/webhook/:id? — the workspace's webhook; level 6+ (SPEC §6). */
export function WebhookScreen() {
  return <ResourceScreen config={config} />;
}
