import { useController } from 'react-hook-form';
import { useNotify } from 'react-admin';
import { useQueryClient } from '@tanstack/react-query';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import { PluginCreateSchema, type PluginCreateReq } from '../../../../api/plugins/schema';
import { texts } from '../../i18n/ptBR';
import { FormTextField } from '../../forms/FormTextField';
import { failureToasts } from '../../forms/serverErrors';
import type { PluginInfo } from '../../inbox/plugins/protocol';
import { ResourceScreen, SecretField, type ResourceAsideProps, type ResourceInputsProps, type ResourceScreenConfig } from '../common';
import { regeneratePluginSecret, truncateEndpoint } from './pluginsApi';
import { screenTexts } from '../common/ResourceScreen';

const t = texts.integrations.plugins;
/** The inbox's plugin tabs read the plugins too. */
const INBOX_PLUGINS = ['inbox', 'plugins'];

function PluginInputs({ control, disabled }: ResourceInputsProps<PluginCreateReq, PluginInfo>) {
  const dev = useController({ name: 'dev', control });
  return (
    <>
      <FormTextField name="name" control={control} label={t.name} required disabled={disabled} autoFocus />
      <FormTextField name="endpoint" control={control} label={t.endpoint} required disabled={disabled} helperText={t.endpointHelp} />
      <FormControlLabel control={<Switch checked={!!dev.field.value} disabled={disabled} onChange={(e) => dev.field.onChange(e.target.checked)} />} label={t.dev} />
    </>
  );
}

/** The auth secret the plugin's server verifies its tokens with (docs/plugins.md), with 'Gerar novo secret'. */
function PluginSecret({ row, replaceRow }: ResourceAsideProps<PluginInfo>) {
  const notify = useNotify();
  const queryClient = useQueryClient();
  const regenerate = async () => {
    try {
      replaceRow(await regeneratePluginSecret(row.id));
      await queryClient.invalidateQueries({ queryKey: INBOX_PLUGINS });
      notify(t.saved, { type: 'success' });
    } catch (err) {
      for (const message of failureToasts(err)) notify(message, { type: 'error' });
    }
  };
  // Copyable: the plugin's server keeps it to verify the signed tokens the app hands its frame.
  return <SecretField label={t.authSecret} value={row.authSecret ?? ''} copyable regenerateLabel={t.regenerate} confirmText={t.regenerateConfirm} onRegenerate={regenerate} />;
}

const config: ResourceScreenConfig<PluginInfo, PluginCreateReq> = {
  path: '/settings/plugins',
  endpoint: '/plugin',
  ...screenTexts(t, () => t.editTitle),
  // A created plugin stays open: its auth secret is what the plugin's author needs next.
  detail: 'page',
  columns: [
    { label: t.columns.name, render: (row) => row.name },
    { label: t.columns.endpoint, render: (row) => truncateEndpoint(row.endpoint), title: (row) => row.endpoint },
  ],
  schema: PluginCreateSchema,
  toForm: (row) => ({ name: row?.name ?? '', endpoint: row?.endpoint ?? '', dev: row?.dev ?? false }),
  fields: ['name', 'endpoint', 'dev'],
  Inputs: PluginInputs,
  Aside: PluginSecret,
  deleteTitle: t.deleteTitle,
  invalidates: [INBOX_PLUGINS],
  toasts: { created: t.saved, updated: t.saved, deleted: t.deleted },
};

/** /settings/plugins/:id? — level 6+ (SPEC §6). */
export function PluginsScreen() {
  return <ResourceScreen config={config} />;
}
