import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import { texts } from '../../i18n/ptBR';

/**
 * The buttons under a settings form: 'Excluir' on the left (when the record can be deleted), then the way
 * back to the list (a link on a detail page, a button in a dialog) and 'Salvar'.
 */
export function FormActions({
  back,
  onDelete,
  deleteLabel = texts.settingsResources.delete,
  saving,
  saveDisabled,
}: {
  back: { label: string; to: string } | { label: string; onClick: () => void };
  onDelete?: () => void;
  deleteLabel?: string;
  saving: boolean;
  saveDisabled?: boolean;
}) {
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', width: '100%' }}>
      {onDelete ? (
        <Button color="error" startIcon={<DeleteOutline />} onClick={onDelete}>
          {deleteLabel}
        </Button>
      ) : null}
      <Box sx={{ flex: 1 }} />
      {'to' in back ? (
        <Button component={RouterLink} to={back.to}>
          {back.label}
        </Button>
      ) : (
        <Button onClick={back.onClick}>{back.label}</Button>
      )}
      <Button type="submit" variant="contained" disabled={saveDisabled} loading={saving}>
        {texts.common.save}
      </Button>
    </Box>
  );
}

/** Under an account form: 'Salvar', then the link to the page beside it ('Alterar senha', 'Voltar'). */
export function SaveThenLink({ saving, to, label }: { saving: boolean; to: string; label: string }) {
  return (
    <Stack direction="row" spacing={2} sx={{ mt: 2 }} alignItems="center">
      <Button type="submit" variant="contained" loading={saving}>
        {texts.common.save}
      </Button>
      <Button component={RouterLink} to={to}>
        {label}
      </Button>
    </Stack>
  );
}
