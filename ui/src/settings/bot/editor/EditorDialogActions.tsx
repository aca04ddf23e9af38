import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import { texts } from '../../../i18n/ptBR';

/** The bar of the editor's dialogs: delete (when the item exists) on the left, cancel and apply on the right. */
export function EditorDialogActions({ onClose, onApply, applyLabel, remove }: { onClose: () => void; onApply: () => void; applyLabel: string; remove?: { label: string; onClick: () => void } }) {
  return (
    <DialogActions>
      {remove ? (
        <Button color="error" startIcon={<DeleteOutline />} onClick={remove.onClick} sx={{ mr: 'auto' }}>
          {remove.label}
        </Button>
      ) : null}
      <Button onClick={onClose}>{texts.common.cancel}</Button>
      <Button variant="contained" onClick={onApply}>
        {applyLabel}
      </Button>
    </DialogActions>
  );
}
