import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'react-admin';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { IMPORT_MAX_CHARS } from '../../../api/contacts/schema';
import { DataTable } from '../common/DataTable';
import { FilePickerButton } from '../common/FilePickerButton';
import { texts } from '../i18n/ptBR';
import { format } from '../i18n/format';
import { errorDescriptions } from '../providers/httpClient';
import { Loading } from '../inbox/loadStates';
import { contactKeys, contactsApi, type ImportPreviewView } from './contactsApi';

const t = texts.contacts.import;
/** Rows shown in the preview; the summary counts them all. */
const PREVIEW_ROWS = 100;

const actionChip = { create: { label: t.create, color: 'success' }, update: { label: t.update, color: 'info' }, skip: { label: t.skip, color: 'default' } } as const;

/** Import from CSV (docs/contacts.md): choose a file, see every row with its errors, then commit. */
export function ImportDialog({ onClose }: { onClose: () => void }) {
  const notify = useNotify();
  const queryClient = useQueryClient();
  const fullScreen = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const [file, setFile] = useState<{ name: string; content: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const preview = useMutation({ mutationFn: (content: string) => contactsApi.preview(content) });
  const commit = useMutation({
    mutationFn: (content: string) => contactsApi.commit(content),
    onSuccess: async (r) => {
      notify(format(t.done, { create: r.create, update: r.update, skip: r.skip }), { type: 'success' });
      await queryClient.invalidateQueries({ queryKey: contactKeys.all });
      onClose();
    },
  });

  const choose = async (chosen: File | undefined) => {
    setProblem(null);
    setFile(null);
    preview.reset();
    if (!chosen) return;
    if (!/\.(csv|txt)$/i.test(chosen.name)) return setProblem(t.notCsv);
    // Read as UTF-8 characters, the limit the api checks.
    const content = await chosen.text();
    if (content.length > IMPORT_MAX_CHARS) return setProblem(t.tooLarge);
    setFile({ name: chosen.name, content });
    preview.mutate(content);
  };

  const data: ImportPreviewView | undefined = preview.data;
  const importable = data ? data.summary.create + data.summary.update : 0;
  return (
    <Dialog open onClose={onClose} fullScreen={fullScreen} maxWidth="md" fullWidth aria-labelledby="import-title">
      <DialogTitle id="import-title">{t.title}</DialogTitle>
      <DialogContent>
        <DialogContentText>{t.help}</DialogContentText>
        <DialogContentText sx={{ mt: 1 }}>{t.limits}</DialogContentText>
        <Box sx={{ my: 2, display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
          <FilePickerButton variant="outlined" accept=".csv,text/csv,.txt" onFiles={(files) => void choose(files[0])} inputTestId="contacts-import-file">
            {t.choose}
          </FilePickerButton>
          {file ? <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>{format(t.chosen, { name: file.name })}</Typography> : null}
        </Box>
        {problem ? <Alert severity="error">{problem}</Alert> : null}
        {preview.isPending ? <Loading /> : null}
        {preview.isError ? <Alert severity="error">{errorDescriptions(preview.error).join(' ')}</Alert> : null}
        {commit.isError ? <Alert severity="error">{errorDescriptions(commit.error).join(' ')}</Alert> : null}
        {data ? (
          <Box data-testid="contacts-import-preview">
            <Typography component="h3" fontWeight={600} sx={{ mb: 1 }}>
              {t.preview}
            </Typography>
            <Typography variant="body2" sx={{ mb: 1 }} data-testid="contacts-import-summary">
              {format(t.summary, data.summary)}
            </Typography>
            {importable === 0 ? <Alert severity="warning">{t.nothing}</Alert> : null}
            <Box sx={{ overflowX: 'auto' }}>
              <DataTable
                rows={data.rows.slice(0, PREVIEW_ROWS)}
                rowKey={(row) => row.line}
                rowTestId="contacts-import-row"
                columns={[
                  { header: t.line, cell: (row) => row.line },
                  { header: texts.contacts.columns.name, cell: (row) => row.name ?? '', cellProps: () => ({ sx: { overflowWrap: 'anywhere' } }) },
                  { header: texts.contacts.columns.phone, cell: (row) => row.phone ?? '', cellProps: () => ({ sx: { whiteSpace: 'nowrap' } }) },
                  { header: texts.contacts.columns.email, cell: (row) => row.email ?? '', cellProps: () => ({ sx: { overflowWrap: 'anywhere' } }) },
                  { header: t.action, cell: (row) => <Chip size="small" label={actionChip[row.action].label} color={actionChip[row.action].color} /> },
                  { header: t.errors, cell: (row) => row.errors.join(' '), cellProps: () => ({ sx: { color: 'error.main', overflowWrap: 'anywhere' } }) },
                ]}
              />
            </Box>
            {data.rows.length > PREVIEW_ROWS ? (
              <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                {format(t.shownRows, { shown: PREVIEW_ROWS, total: data.rows.length })}
              </Typography>
            ) : null}
          </Box>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t.cancel}</Button>
        <Button variant="contained" disabled={!file || !data || importable === 0} loading={commit.isPending} onClick={() => file && commit.mutate(file.content)} data-testid="contacts-import-submit">
          {t.submit}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
