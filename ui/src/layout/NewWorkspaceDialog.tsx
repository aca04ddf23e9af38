import { useState } from 'react';
import { useForm } from 'react-hook-form';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { WorkspaceCreateSchema, type WorkspaceCreateReq } from '../../../api/workspaces/schema';
import { texts } from '../i18n/ptBR';
import { FormTextField } from '../forms/FormTextField';
import { zodResolver } from '../forms/zodResolver';
import { applyServerErrors } from '../forms/serverErrors';
import { accountApi } from '../settings/account/accountApi';
import { useEnterWorkspace } from './useSwitchWorkspace';
import { FormErrors } from '../auth/AuthCard';

const t = texts.layout.newWorkspace;

/** 'Novo workspace': name required; the answer is the new workspace's session, entered at once. */
export function NewWorkspaceDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const enter = useEnterWorkspace();
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const { control, handleSubmit, setError, reset, formState } = useForm<WorkspaceCreateReq>({
    resolver: zodResolver(WorkspaceCreateSchema),
    defaultValues: { name: '' },
  });
  const close = () => {
    reset();
    setFormErrors([]);
    onClose();
  };
  const submit = handleSubmit(async (values) => {
    setFormErrors([]);
    try {
      const data = await accountApi.createWorkspace(values);
      close();
      enter(data);
    } catch (err) {
      setFormErrors(applyServerErrors(err, ['name'], setError));
    }
  });
  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="xs" aria-labelledby="new-workspace-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="new-workspace-title">{t.title}</DialogTitle>
        <DialogContent>
          <FormTextField control={control} name="name" label={t.name} required autoFocus />
          <FormErrors messages={formErrors} sx={{}} />
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>{texts.common.cancel}</Button>
          <Button type="submit" variant="contained" loading={formState.isSubmitting}>
            {t.submit}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
