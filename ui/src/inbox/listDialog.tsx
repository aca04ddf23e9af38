import type { ReactNode } from 'react';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import { texts } from '../i18n/ptBR';
import { Loading, RetryAlert } from './loadStates';

/** The inbox's list dialogs (quick phrases, filters): their list with its states, and their actions. */
/**
 * A dialog's list with the states around it: the spinner while `query` loads, `loadError` with a retry when it
 * failed, `emptyText` when `empty`, else the list (`children`).
 */
export function DialogListStates({
  query,
  loadError,
  empty,
  emptyText,
  emptyPy = 2,
  children,
}: {
  query: { isLoading: boolean; isError: boolean; refetch: () => unknown };
  loadError: string;
  empty: boolean;
  emptyText: string;
  emptyPy?: number;
  children: ReactNode;
}) {
  if (query.isLoading) return <Loading />;
  if (query.isError) {
    return (
      <RetryAlert sx={{ mx: 3 }} onRetry={query.refetch}>
        {loadError}
      </RetryAlert>
    );
  }
  if (empty) {
    return (
      <Typography color="text.secondary" sx={{ px: 3, py: emptyPy, textAlign: 'center' }}>
        {emptyText}
      </Typography>
    );
  }
  return children;
}

/** Under a list dialog: the 'new' action on the left, 'Fechar' on the right. */
export function ListDialogActions({ newLabel, onNew, onClose }: { newLabel: string; onNew: () => void; onClose: () => void }) {
  return (
    <DialogActions>
      <Button startIcon={<Add />} onClick={onNew} sx={{ mr: 'auto' }}>
        {newLabel}
      </Button>
      <Button onClick={onClose}>{texts.common.close}</Button>
    </DialogActions>
  );
}
