import { useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useNotifyOnce } from '../../common/useNotifyOnce';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import LinearProgress from '@mui/material/LinearProgress';
import TextField from '@mui/material/TextField';
import { WorkspaceUpdateSchema } from '../../../../api/workspaces/schema';
import { texts } from '../../i18n/ptBR';
import { FormTextField } from '../../forms/FormTextField';
import { zodResolver } from '../../forms/zodResolver';
import { applyServerErrors, failureToasts } from '../../forms/serverErrors';
import { errorDescriptions } from '../../providers/httpClient';
import { updateWorkspace, useSession } from '../../providers/session';
import { AvatarUpload } from './AvatarUpload';
import { SettingsPage } from '../SettingsPage';
import { accountApi } from './accountApi';
import { zoneChoices } from './timeZones';
import { useLiveLoad } from '../../common/useLiveLoad';
import { TwoFactorRequirementSection } from '../../auth/twoFactor/TwoFactorRequirementSection';

const t = texts.settings.workspace;
/** SPEC §6: workspace settings need level 6. */
const EDIT_LEVEL = 6;

interface WorkspaceForm {
  name: string;
  timeZone: string;
  assignOnManualReply: boolean;
  /** null = never (the checkbox off); docs/assignment.md "Availability". */
  awayAfterMinutes: number | null;
}

/** What the minutes field proposes when the idle time is switched on. */
const DEFAULT_AWAY_MINUTES = 15;


/** /settings/account/workspace ('Geral'): the workspace's name, time zone, the bot take-over preference and the idle time after which agents turn 'ausente'. */
export function WorkspacePage() {
  const notify = useNotifyOnce();
  const session = useSession();
  const canEdit = (session?.workspace.accessLevel ?? 0) >= EDIT_LEVEL;
  const [loadErrors, setLoadErrors] = useState<string[] | null>(null);
  const [loaded, setLoaded] = useState(false);
  const { control, handleSubmit, setError, reset, formState, watch } = useForm<WorkspaceForm>({
    resolver: zodResolver(WorkspaceUpdateSchema),
    defaultValues: { name: session?.workspace.workspace ?? '', timeZone: '', assignOnManualReply: true, awayAfterMinutes: null },
  });
  const currentZone = watch('timeZone');
  const zones = useMemo(() => zoneChoices(currentZone), [currentZone]);

  useLiveLoad(
    accountApi.getWorkspace,
    (ws) => {
      reset({ name: ws.name, timeZone: ws.timeZone ?? '', assignOnManualReply: ws.assignOnManualReply ?? true, awayAfterMinutes: ws.awayAfterMinutes ?? null });
      setLoaded(true);
    },
    (err) => setLoadErrors(errorDescriptions(err)),
    [reset, session?.workspace.workspaceId],
  );

  const submit = handleSubmit(async (values) => {
    const body = { name: values.name, assignOnManualReply: values.assignOnManualReply, awayAfterMinutes: values.awayAfterMinutes, ...(values.timeZone ? { timeZone: values.timeZone } : {}) };
    try {
      await accountApi.updateWorkspace(body);
      updateWorkspace({ workspace: body.name });
      reset({ name: body.name, timeZone: values.timeZone, assignOnManualReply: values.assignOnManualReply, awayAfterMinutes: values.awayAfterMinutes });
      notify(t.saved, { type: 'success' });
    } catch (err) {
      applyServerErrors(err, ['name', 'timeZone', 'awayAfterMinutes'], setError);
      for (const message of failureToasts(err, t.error)) notify(message, { type: 'error' });
    }
  });

  return (
    <SettingsPage title={t.title}>
      {loadErrors ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {loadErrors.join(' ')}
        </Alert>
      ) : null}
      {!loaded && !loadErrors ? <LinearProgress aria-label={texts.common.loading} sx={{ mb: 2 }} /> : null}
      {!canEdit ? (
        <Alert severity="info" sx={{ mb: 1 }}>
          {t.readOnly}
        </Alert>
      ) : null}
      <AvatarUpload
        path="/workspace/avatar"
        name={session?.workspace.workspace ?? ''}
        avatar={session?.workspace.avatar}
        disabled={!canEdit}
        onUploaded={(url) => updateWorkspace({ avatar: url })}
      />
      <form onSubmit={submit} noValidate>
        <FormTextField control={control} name="name" label={t.name} required disabled={!canEdit} />
        <Controller
          control={control}
          name="timeZone"
          render={({ field, fieldState }) => (
            <TextField
              select
              id="field-timeZone"
              label={t.timeZone}
              name={field.name}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              inputRef={field.ref}
              error={fieldState.invalid}
              helperText={fieldState.error?.message}
              disabled={!canEdit}
              fullWidth
              margin="normal"
              slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
            >
              {field.value ? null : <option value="" />}
              <optgroup label={t.zonesBrazil}>
                {zones.brazil.map(({ zone, label }) => (
                  <option key={zone} value={zone}>
                    {`${label} — ${zone}`}
                  </option>
                ))}
              </optgroup>
              <optgroup label={t.zonesOthers}>
                {zones.others.map((zone) => (
                  <option key={zone} value={zone}>
                    {zone}
                  </option>
                ))}
              </optgroup>
            </TextField>
          )}
        />
        <Controller
          control={control}
          name="assignOnManualReply"
          render={({ field }) => (
            <>
              <FormControlLabel
                sx={{ mt: 1 }}
                control={<Checkbox name={field.name} checked={field.value} onChange={(e) => field.onChange(e.target.checked)} onBlur={field.onBlur} inputRef={field.ref} disabled={!canEdit} slotProps={{ input: { 'aria-describedby': 'assign-on-manual-reply-help' } }} />}
                label={t.assignOnManualReply}
              />
              <FormHelperText id="assign-on-manual-reply-help" sx={{ mt: 0 }}>
                {t.assignOnManualReplyHelp}
              </FormHelperText>
            </>
          )}
        />
        <Controller
          control={control}
          name="awayAfterMinutes"
          render={({ field, fieldState }) => (
            <>
              <FormControlLabel
                sx={{ mt: 1 }}
                control={
                  <Checkbox
                    name="awayAfterEnabled"
                    checked={field.value !== null}
                    onChange={(e) => field.onChange(e.target.checked ? DEFAULT_AWAY_MINUTES : null)}
                    disabled={!canEdit}
                    slotProps={{ input: { 'aria-describedby': 'away-after-help' } }}
                  />
                }
                label={t.awayAfter}
              />
              {field.value !== null ? (
                <TextField
                  id="field-awayAfterMinutes"
                  type="number"
                  label={t.awayAfterMinutes}
                  name={field.name}
                  value={Number.isNaN(field.value) ? '' : field.value}
                  onChange={(e) => field.onChange(e.target.value === '' ? Number.NaN : Number(e.target.value))}
                  onBlur={field.onBlur}
                  inputRef={field.ref}
                  error={fieldState.invalid}
                  helperText={fieldState.error?.message}
                  disabled={!canEdit}
                  required
                  margin="dense"
                  sx={{ maxWidth: 240 }}
                  slotProps={{ htmlInput: { min: 1, max: 1440, step: 1, inputMode: 'numeric' } }}
                />
              ) : null}
              <FormHelperText id="away-after-help" sx={{ mt: 0 }}>
                {t.awayAfterHelp}
              </FormHelperText>
            </>
          )}
        />
        {canEdit ? (
          <Button type="submit" variant="contained" sx={{ mt: 2 }} loading={formState.isSubmitting}>
            {texts.common.save}
          </Button>
        ) : null}
      </form>
      <TwoFactorRequirementSection />
    </SettingsPage>
  );
}
