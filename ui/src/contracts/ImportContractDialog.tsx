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
import FormHelperText from '@mui/material/FormHelperText';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import UploadFile from '@mui/icons-material/UploadFile';
import { CONTRACT_TYPES, contractType, FORMAT_LABELS } from '../../../api/contracts/catalog';
import { ContractImportFormSchema } from '../../../api/contracts/schema';
import { FilePickerButton } from '../common/FilePickerButton';
import { format } from '../i18n/format';
import { errorDescriptions, isHttpError } from '../providers/httpClient';
import { contractKeys, contractsApi } from './contractsApi';
import { contractTexts } from './texts';

const t = contractTexts.import;
/** SPEC §9 file limit, checked here too so a big file is named before it is sent. */
const MAX_FILE_BYTES = 16 * 1024 * 1024;
const ACCEPT = '.json,.csv,.txt,.pdf,application/json,text/csv,text/plain,application/pdf';

type FieldErrors = Partial<Record<'code' | 'files', string>>;

/** 'Importar Contrato' (SPEC §2, §5): a type and one or more files; the server stores them and the import workflow reads them. */
export function ImportContractDialog({ onClose }: { onClose: () => void }) {
  const notify = useNotify();
  const qc = useQueryClient();
  const fullScreen = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const [code, setCode] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [problem, setProblem] = useState<string[]>([]);
  const type = contractType(code);

  const send = useMutation({
    mutationFn: () => contractsApi.import(code, files),
    onSuccess: async () => {
      notify(t.success, { type: 'success' });
      await qc.invalidateQueries({ queryKey: contractKeys.all });
      onClose();
    },
    onError: (err) => {
      // Field errors of the server land on the type or the files; the rest shows above the buttons.
      const fields = isHttpError(err) ? err.fieldErrors : {};
      const placed: FieldErrors = {};
      for (const [key, text] of Object.entries(fields)) {
        if (key === 'code') placed.code = text;
        else if (key === 'files' || /^file/.test(key)) placed.files = placed.files ? `${placed.files} ${text}` : text;
      }
      setErrors(placed);
      setProblem(Object.keys(placed).length ? [] : errorDescriptions(err));
    },
  });

  const add = (chosen: File[]) => {
    setFiles((list) => [...list, ...chosen]);
    setErrors((e) => ({ ...e, files: undefined }));
  };

  const submit = () => {
    setProblem([]);
    const parsed = ContractImportFormSchema.safeParse({ code, files });
    const next: FieldErrors = {};
    if (!parsed.success) for (const issue of parsed.error.issues) next[issue.path[0] as 'code' | 'files'] ??= issue.message;
    const big = files.filter((f) => f.size > MAX_FILE_BYTES).map((f) => format(t.tooLarge, { name: f.name }));
    if (big.length) next.files = big.join(' ');
    setErrors(next);
    if (!Object.keys(next).length) send.mutate();
  };

  return (
    <Dialog open onClose={onClose} fullScreen={fullScreen} maxWidth="sm" fullWidth aria-labelledby="contract-import-title">
      <DialogTitle id="contract-import-title">{t.title}</DialogTitle>
      <DialogContent>
        <TextField
          select
          fullWidth
          margin="dense"
          label={t.type}
          value={code}
          onChange={(e) => {
            setCode(e.target.value);
            setErrors((er) => ({ ...er, code: undefined }));
          }}
          error={Boolean(errors.code)}
          helperText={errors.code ?? (type ? format(t.formats, { formats: type.formats.map((f) => FORMAT_LABELS[f]).join(', ') }) : ' ')}
          slotProps={{ htmlInput: { 'data-testid': 'contract-import-type' } }}
        >
          {CONTRACT_TYPES.map((ct) => (
            <MenuItem key={ct.code} value={ct.code}>
              {ct.name}
            </MenuItem>
          ))}
        </TextField>
        {type ? (
          <Box sx={{ mt: 1 }}>
            {type.formats.map((f) => (
              <DialogContentText key={f} variant="body2" sx={{ mb: 0.5 }}>
                {f === 'json' ? t.jsonLayout : f === 'csv' ? t.csvLayout : t.pdfLayout}
              </DialogContentText>
            ))}
          </Box>
        ) : null}
        <DialogContentText variant="body2" sx={{ mt: 1 }}>
          {t.limit}
        </DialogContentText>
        <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, mt: 2 }}>
          <Typography component="legend" variant="subtitle2" sx={{ mb: 1 }}>
            {t.files}
          </Typography>
          <FilePickerButton
            variant="outlined"
            startIcon={<UploadFile />}
            sx={{ minHeight: 44 }}
            accept={ACCEPT}
            multiple
            onFiles={add}
            inputTestId="contract-import-files"
            aria-describedby={errors.files ? 'contract-import-files-error' : undefined}
          >
            {t.choose}
          </FilePickerButton>
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mt: 1 }} data-testid="contract-import-chosen">
            {files.map((f, i) => (
              <Chip key={`${f.name}-${i}`} label={f.name} onDelete={() => setFiles((list) => list.filter((_, j) => j !== i))} sx={{ maxWidth: '100%' }} />
            ))}
          </Box>
          {errors.files ? (
            <FormHelperText error id="contract-import-files-error">
              {errors.files}
            </FormHelperText>
          ) : null}
        </Box>
        {problem.length ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {problem.join(' ')}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t.cancel}</Button>
        <Button variant="contained" onClick={submit} loading={send.isPending} data-testid="contract-import-submit">
          {t.submit}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
