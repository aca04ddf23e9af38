import { useEffect, useRef, useState } from 'react';
import { useController, useForm, type FieldErrors } from 'react-hook-form';
import { useNotify } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import { BusinessHoursCreateSchema, type BusinessHoursCreateReq } from '../../../../api/businessHours/schema';
import { defaultDays } from '../../../../api/businessHours/schedule';
import { WEEK_DAYS } from '../../../../api/businessHours/week';
import type { WeekSchedule } from '../../../../api/models/BusinessHours';
import { texts } from '../../i18n/ptBR';
import { format } from '../../i18n/format';
import { zodResolver } from '../../forms/zodResolver';
import { FormTextField } from '../../forms/FormTextField';
import { applyServerErrors, failureToasts } from '../../forms/serverErrors';
import { errorDescriptions } from '../../providers/httpClient';
import { DeleteConfirm } from '../../common/DeleteConfirm';
import { SettingsPage } from '../SettingsPage';
import { businessHoursApi, businessHoursKey, type BusinessHoursRow } from './businessHoursApi';
import { DayHoursEditor } from './DayHoursEditor';

const t = texts.businessHours;
interface Form {
  name: string;
  days: WeekSchedule;
}

/** The first message under a day's key, wherever zod put it (hours, a range, a slot). */
function dayError(errors: FieldErrors<Form>, day: string): string | undefined {
  const find = (node: unknown): string | undefined => {
    if (!node || typeof node !== 'object') return undefined;
    const message = (node as { message?: unknown }).message;
    if (typeof message === 'string') return message;
    for (const child of Object.values(node)) {
      const m = find(child);
      if (m) return m;
    }
    return undefined;
  };
  return find((errors.days as Record<string, unknown> | undefined)?.[day]);
}

/** /settings/business-hours/new and /settings/business-hours/:id: name and, per weekday, open toggle and 15-minute ranges. */
export function BusinessHoursPage() {
  const { id: rawId } = useParams();
  const isNew = rawId === 'new';
  const id = rawId && /^\d+$/.test(rawId) ? Number(rawId) : undefined;
  const notify = useNotify();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);

  const { data: row, error } = useQuery({ queryKey: [...businessHoursKey, id], queryFn: () => businessHoursApi.get(id!), enabled: id !== undefined, retry: false });
  const { control, handleSubmit, setError, reset, formState } = useForm<Form>({
    resolver: zodResolver(BusinessHoursCreateSchema),
    defaultValues: { name: '', days: defaultDays() },
  });
  const days = useController({ name: 'days', control });
  // The form takes the row once per record: a background refetch must not overwrite what is being typed.
  const loadedId = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (row && row.id !== loadedId.current) {
      loadedId.current = row.id;
      reset({ name: row.name, days: row.days });
    }
  }, [row, reset]);

  const saved = (saved: BusinessHoursRow, created: boolean) => {
    queryClient.setQueryData([...businessHoursKey, saved.id], saved);
    void queryClient.invalidateQueries({ queryKey: businessHoursKey, exact: true });
    notify(format(created ? t.created : t.updated, { name: saved.name }), { type: 'success' });
  };

  const submit = handleSubmit(async (values) => {
    const body: BusinessHoursCreateReq = { name: values.name, days: values.days };
    try {
      if (id === undefined) {
        const created = await businessHoursApi.create(body);
        loadedId.current = created.id;
        saved(created, true);
        void navigate(`/settings/business-hours/${created.id}`, { replace: true });
      } else {
        const updated = await businessHoursApi.update(id, body);
        reset({ name: updated.name, days: updated.days });
        saved(updated, false);
      }
    } catch (err) {
      applyServerErrors(err, ['name', ...WEEK_DAYS.map((d) => `days.${d}.hours`)], setError);
      for (const message of failureToasts(err)) notify(message, { type: 'error' });
    }
  });

  const remove = async () => {
    if (id === undefined) return;
    setDeleting(true);
    try {
      await businessHoursApi.remove(id);
      queryClient.removeQueries({ queryKey: [...businessHoursKey, id] });
      await queryClient.invalidateQueries({ queryKey: businessHoursKey, exact: true });
      notify(t.deleted, { type: 'success' });
      void navigate('/settings/business-hours');
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
        <Button component={RouterLink} to="/settings/business-hours" sx={{ mt: 2 }}>
          {t.back}
        </Button>
      </SettingsPage>
    );
  }

  const value = days.field.value;
  return (
    <SettingsPage title={isNew ? t.newTitle : t.editTitle}>
      {!isNew && !row ? <LinearProgress aria-label={texts.common.loading} sx={{ mb: 2 }} /> : null}
      <form onSubmit={submit} noValidate>
        <FormTextField control={control} name="name" label={t.name} required autoFocus />
        {WEEK_DAYS.map((d) => (
          <DayHoursEditor
            key={d}
            day={d}
            value={value[d]}
            error={dayError(formState.errors, d)}
            disabled={formState.isSubmitting}
            onChange={(next) => days.field.onChange({ ...value, [d]: next })}
          />
        ))}
        <Box sx={{ display: 'flex', gap: 1, mt: 2, alignItems: 'center' }}>
          <Button type="submit" variant="contained" loading={formState.isSubmitting}>
            {texts.common.save}
          </Button>
          <Button component={RouterLink} to="/settings/business-hours">
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
