import { useEffect, useState } from 'react';
import { useForm, Controller } from 'react-hook-form';
import { Confirm, useNotify } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import { PluginCreateSchema } from '../../../../api/plugins/schema';
import { texts } from '../../i18n/ptBR';
import { zodResolver } from '../../forms/zodResolver';
import { FormTextField } from '../../forms/FormTextField';
import { applyServerErrors, failureToasts } from '../../forms/serverErrors';
import { errorDescriptions } from '../../providers/httpClient';
import { DeleteConfirm } from '../../common/DeleteConfirm';
import { SettingsPage } from '../SettingsPage';
import type { PluginInfo } from '../../inbox/plugins/protocol';
import { pluginsApi, pluginsSettingsKey, truncateEndpoint } from './pluginsApi';

const t = texts.integrations.plugins;

/** /settings/plugins/:id?: the list without an id, the form with one ('new' creates). */
export function PluginsPage() {
  const { id } = useParams();
  if (id === 'new') return <PluginForm />;
  if (id && /^\d+$/.test(id)) return <PluginForm id={Number(id)} />;
  return <PluginList />;
}

function PluginList() {
  const navigate = useNavigate();
  const { data, error, isPending } = useQuery({ queryKey: pluginsSettingsKey, queryFn: pluginsApi.list });
  const open = (p: PluginInfo) => void navigate(`/settings/plugins/${p.id}`);
  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 2, maxWidth: 960 }}>
        <Typography variant="h5" component="h1" fontWeight={700} sx={{ flex: 1 }}>
          {t.title}
        </Typography>
        <Button component={RouterLink} to="/settings/plugins/new" variant="contained" startIcon={<Add />}>
          {t.add}
        </Button>
      </Box>
      {error ? <Alert severity="error">{errorDescriptions(error).join(' ')}</Alert> : null}
      {isPending ? <LinearProgress aria-label={texts.common.loading} /> : null}
      {data && data.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 4, maxWidth: 720 }}>
          <Typography>{t.empty}</Typography>
        </Paper>
      ) : null}
      {data && data.length > 0 ? (
        <Paper variant="outlined" sx={{ maxWidth: 960 }}>
          <Table aria-label={t.title}>
            <TableHead>
              <TableRow>
                <TableCell>{t.columns.name}</TableCell>
                <TableCell>{t.columns.endpoint}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.map((p) => (
                <TableRow key={p.id} hover tabIndex={0} sx={{ cursor: 'pointer' }} onClick={() => open(p)} onKeyDown={(e) => e.key === 'Enter' && open(p)}>
                  <TableCell>{p.name}</TableCell>
                  <TableCell title={p.endpoint}>{truncateEndpoint(p.endpoint)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Paper>
      ) : null}
    </>
  );
}

interface PluginFormValues {
  name: string;
  endpoint: string;
  dev: boolean;
}

function PluginForm({ id }: { id?: number }) {
  const notify = useNotify();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [confirmRegenerate, setConfirmRegenerate] = useState(false);
  const { data: plugin, error } = useQuery({ queryKey: [...pluginsSettingsKey, id], queryFn: () => pluginsApi.get(id!), enabled: id !== undefined, retry: false });
  const { control, handleSubmit, setError, reset, formState } = useForm<PluginFormValues>({
    resolver: zodResolver(PluginCreateSchema),
    defaultValues: { name: '', endpoint: '', dev: false },
  });
  useEffect(() => {
    if (plugin) reset({ name: plugin.name, endpoint: plugin.endpoint, dev: plugin.dev });
  }, [plugin, reset]);

  const saved = (row: PluginInfo) => {
    queryClient.setQueryData([...pluginsSettingsKey, row.id], row);
    void queryClient.invalidateQueries({ queryKey: pluginsSettingsKey, exact: true });
    void queryClient.invalidateQueries({ queryKey: ['inbox', 'plugins'] });
    notify(t.saved, { type: 'success' });
  };

  const submit = handleSubmit(async (values) => {
    try {
      const row = id === undefined ? await pluginsApi.create(values) : await pluginsApi.update(id, values);
      saved(row);
      if (id === undefined) void navigate(`/settings/plugins/${row.id}`, { replace: true });
    } catch (err) {
      applyServerErrors(err, ['name', 'endpoint', 'dev'], setError);
      for (const message of failureToasts(err)) notify(message, { type: 'error' });
    }
  });

  const regenerate = async () => {
    setConfirmRegenerate(false);
    if (id === undefined) return;
    try {
      saved(await pluginsApi.update(id, { regenerateSecret: true }));
    } catch (err) {
      for (const message of failureToasts(err)) notify(message, { type: 'error' });
    }
  };

  const remove = async () => {
    if (id === undefined) return;
    try {
      await pluginsApi.remove(id);
      void queryClient.invalidateQueries({ queryKey: pluginsSettingsKey });
      void queryClient.invalidateQueries({ queryKey: ['inbox', 'plugins'] });
      notify(t.deleted, { type: 'success' });
      void navigate('/settings/plugins');
    } catch (err) {
      for (const message of failureToasts(err)) notify(message, { type: 'error' });
    }
    setConfirmDelete(false);
  };

  if (error) return <Alert severity="error">{errorDescriptions(error).join(' ')}</Alert>;
  return (
    <SettingsPage title={id === undefined ? t.newTitle : t.editTitle}>
      <Box component="form" noValidate onSubmit={(e) => void submit(e)} sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <FormTextField name="name" control={control} label={t.name} required />
        <FormTextField name="endpoint" control={control} label={t.endpoint} required helperText={t.endpointHelp} />
        <Controller
          name="dev"
          control={control}
          render={({ field }) => <FormControlLabel control={<Switch checked={field.value} onChange={(e) => field.onChange(e.target.checked)} />} label={t.dev} />}
        />
        {plugin ? (
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
            <TextField label={t.authSecret} value={plugin.authSecret} size="small" fullWidth slotProps={{ input: { readOnly: true } }} />
            <Button onClick={() => setConfirmRegenerate(true)}>{t.regenerate}</Button>
          </Box>
        ) : null}
        <Box sx={{ display: 'flex', gap: 1 }}>
          <Button type="submit" variant="contained" disabled={formState.isSubmitting}>
            {t.save}
          </Button>
          <Button component={RouterLink} to="/settings/plugins">
            {t.back}
          </Button>
          <Box sx={{ flex: 1 }} />
          {id !== undefined ? (
            <Button color="error" onClick={() => setConfirmDelete(true)}>
              {t.deleteTitle}
            </Button>
          ) : null}
        </Box>
      </Box>
      <DeleteConfirm isOpen={confirmDelete} title={t.deleteTitle} onConfirm={() => void remove()} onClose={() => setConfirmDelete(false)} />
      <Confirm
        isOpen={confirmRegenerate}
        title={t.regenerate}
        content={t.regenerateConfirm}
        confirm={texts.integrations.api.confirm}
        cancel={texts.common.cancel}
        onConfirm={() => void regenerate()}
        onClose={() => setConfirmRegenerate(false)}
      />
    </SettingsPage>
  );
}
