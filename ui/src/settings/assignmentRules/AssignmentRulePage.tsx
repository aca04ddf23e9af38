import { useEffect, useRef, useState } from 'react';
import { useController, useForm, type Control, type FieldPath } from 'react-hook-form';
import { useNotify } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import { AssignmentRuleCreateSchema, type AssignmentRuleCreateReq } from '../../../../api/assignment/schema';
import { texts } from '../../i18n/ptBR';
import { zodResolver } from '../../forms/zodResolver';
import { FormTextField } from '../../forms/FormTextField';
import { applyServerErrors, failureToasts } from '../../forms/serverErrors';
import { errorDescriptions } from '../../providers/httpClient';
import { DeleteConfirm } from '../../common/DeleteConfirm';
import { SettingsPage } from '../SettingsPage';
import { assignmentRulesApi, assignmentRulesKey, type AssignmentRuleRow, type Choice } from './assignmentRulesApi';
import { choicesKey } from './AssignmentRulesListPage';

const t = texts.assignmentRules;

interface Form {
  name: string;
  isActive: boolean;
  rules: { workspacePlatformId: number; group: number | null; operator: number | null; businessHours: number | null };
}

const toForm = (row?: AssignmentRuleRow): Form => ({
  name: row?.name ?? '',
  isActive: row?.isActive ?? true,
  rules: {
    workspacePlatformId: row?.rules.workspacePlatformId ?? (undefined as unknown as number),
    group: row?.rules.group ?? null,
    operator: row?.rules.operator ?? null,
    businessHours: row?.rules.businessHours ?? null,
  },
});

/** A select of ids; '' stands for null ('Nenhum' / 'Sempre'). */
function IdSelect({ control, name, label, choices, emptyLabel, required }: { control: Control<Form>; name: FieldPath<Form>; label: string; choices: Choice[]; emptyLabel?: string; required?: boolean }) {
  const { field, fieldState } = useController({ name, control });
  const value = field.value as number | null | undefined;
  return (
    <TextField
      select
      id={`field-${name}`}
      label={label}
      required={required}
      fullWidth
      margin="normal"
      value={value ?? ''}
      onChange={(e) => field.onChange(e.target.value === '' ? null : Number(e.target.value))}
      onBlur={field.onBlur}
      inputRef={field.ref}
      error={fieldState.invalid}
      helperText={fieldState.error?.message}
    >
      {emptyLabel !== undefined ? <MenuItem value="">{emptyLabel}</MenuItem> : null}
      {choices.map((c) => (
        <MenuItem key={c.id} value={c.id}>
          {c.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** /settings/assignment-rules/new and /:id: name, active, channel, and a group and/or an agent, optional schedule. */
export function AssignmentRulePage() {
  const { id: rawId } = useParams();
  const isNew = rawId === 'new';
  const id = rawId && /^\d+$/.test(rawId) ? Number(rawId) : undefined;
  const notify = useNotify();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);

  const { data: row, error } = useQuery({ queryKey: [...assignmentRulesKey, id], queryFn: () => assignmentRulesApi.get(id!), enabled: id !== undefined, retry: false });
  const { data: choices } = useQuery({ queryKey: choicesKey, queryFn: assignmentRulesApi.choices });
  const { control, handleSubmit, setError, reset, formState } = useForm<Form>({ resolver: zodResolver(AssignmentRuleCreateSchema), defaultValues: toForm() });
  const active = useController({ name: 'isActive', control });
  // The form takes the row once per record: a background refetch must not overwrite what is being typed.
  const loadedId = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (row && row.id !== loadedId.current) {
      loadedId.current = row.id;
      reset(toForm(row));
    }
  }, [row, reset]);

  const submit = handleSubmit(async (values) => {
    const body: AssignmentRuleCreateReq = values;
    try {
      const saved = id === undefined ? await assignmentRulesApi.create(body) : await assignmentRulesApi.update(id, body);
      loadedId.current = saved.id;
      queryClient.setQueryData([...assignmentRulesKey, saved.id], saved);
      void queryClient.invalidateQueries({ queryKey: assignmentRulesKey, exact: true });
      notify(t.saved, { type: 'success' });
      if (id === undefined) void navigate(`/settings/assignment-rules/${saved.id}`, { replace: true });
      else reset(toForm(saved));
    } catch (err) {
      applyServerErrors(err, ['name', 'rules.workspacePlatformId', 'rules.group', 'rules.operator', 'rules.businessHours'], setError);
      for (const message of failureToasts(err)) notify(message, { type: 'error' });
    }
  });

  const remove = async () => {
    if (id === undefined) return;
    setDeleting(true);
    try {
      await assignmentRulesApi.remove(id);
      queryClient.removeQueries({ queryKey: [...assignmentRulesKey, id] });
      await queryClient.invalidateQueries({ queryKey: assignmentRulesKey, exact: true });
      notify(t.deleted, { type: 'success' });
      void navigate('/settings/assignment-rules');
    } catch (err) {
      for (const message of errorDescriptions(err)) notify(message, { type: 'error' });
    } finally {
      setDeleting(false);
      setConfirming(false);
    }
  };

  if (!isNew && (id === undefined || error)) {
    return (
      <SettingsPage title={t.editTitle}>
        <Alert severity="error">{id === undefined ? texts.common.notFound : errorDescriptions(error).join(' ')}</Alert>
        <Button component={RouterLink} to="/settings/assignment-rules" sx={{ mt: 2 }}>
          {t.back}
        </Button>
      </SettingsPage>
    );
  }

  return (
    <SettingsPage title={isNew ? t.newTitle : t.editTitle}>
      {(!isNew && !row) || !choices ? <LinearProgress aria-label={texts.common.loading} sx={{ mb: 2 }} /> : null}
      <form onSubmit={submit} noValidate>
        <FormTextField control={control} name="name" label={t.name} required autoFocus />
        <FormControlLabel control={<Switch checked={!!active.field.value} onChange={(e) => active.field.onChange(e.target.checked)} />} label={t.isActive} />
        <IdSelect control={control} name="rules.workspacePlatformId" label={t.channel} choices={choices?.channels ?? []} required />
        <IdSelect control={control} name="rules.group" label={t.group} choices={choices?.groups ?? []} emptyLabel={t.none} />
        <IdSelect control={control} name="rules.operator" label={t.operator} choices={choices?.operators ?? []} emptyLabel={t.none} />
        <IdSelect control={control} name="rules.businessHours" label={t.businessHours} choices={choices?.businessHours ?? []} emptyLabel={t.always} />
        <Box sx={{ display: 'flex', gap: 1, mt: 2, alignItems: 'center' }}>
          <Button type="submit" variant="contained" loading={formState.isSubmitting}>
            {texts.common.save}
          </Button>
          <Button component={RouterLink} to="/settings/assignment-rules">
            {texts.common.cancel}
          </Button>
          <Box sx={{ flex: 1 }} />
          {row ? (
            <Button color="error" startIcon={<DeleteOutline />} onClick={() => setConfirming(true)}>
              {t.delete}
            </Button>
          ) : null}
        </Box>
      </form>
      <DeleteConfirm isOpen={confirming} loading={deleting} title={t.deleteTitle} onConfirm={() => void remove()} onClose={() => setConfirming(false)} />
    </SettingsPage>
  );
}
