import { useEffect, useState, type ReactNode } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'react-admin';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import ContentCopy from '@mui/icons-material/ContentCopy';
import FileDownload from '@mui/icons-material/FileDownload';
import { CONTRACT_TYPES, contractType, maskCpf, type ContractDecision } from '../../../api/contracts/catalog';
import { validCpf } from '../../../api/billing/document';
import { DeleteConfirm, useItemDeletion } from '../common/DeleteConfirm';
import { TipIconButton } from '../common/TipIconButton';
import { failureToasts } from '../forms/serverErrors';
import { errorDescriptions } from '../providers/httpClient';
import { Loading } from '../inbox/loadStates';
import { formatDateTime } from '../inbox/contact/formatDate';
import { contractKeys, contractsApi, useContract, type ContractRow } from './contractsApi';
import { StatusChip } from './StatusChip';
import { contractTexts } from './texts';

const t = contractTexts.detail;

function Field({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <>
      <Typography component="dt" variant="body2" color="text.secondary" sx={{ fontWeight: 600 }}>
        {label}
      </Typography>
      <Box component="dd" sx={{ m: 0, minWidth: 0, overflowWrap: 'anywhere' }} data-testid={testId}>
        {children}
      </Box>
    </>
  );
}

/** The stamp with its copy button: 'Hash Serpro copiado para clipboard' (SPEC §8). */
function Stamp({ stamp }: { stamp: string }) {
  const notify = useNotify();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(stamp);
      notify(t.stampCopied, { type: 'success' });
    } catch {
      notify(t.copyFailed, { type: 'warning' });
    }
  };
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
      <Typography component="code" variant="body2" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere', minWidth: 0 }} data-testid="contract-stamp">
        {stamp}
      </Typography>
      <TipIconButton title={t.copyStamp} onClick={() => void copy()} sx={{ flexShrink: 0 }}>
        <ContentCopy fontSize="small" />
      </TipIconButton>
    </Box>
  );
}

/** The type edit (SPEC §5: saving is disabled without JSON; formalized and overwritten contracts keep theirs). */
function TypeEdit({ contract }: { contract: ContractRow }) {
  const notify = useNotify();
  const qc = useQueryClient();
  const [code, setCode] = useState(contract.code);
  useEffect(() => setCode(contract.code), [contract.code]);
  const locked = contract.status === 'formalized' || contract.status === 'overwritten';
  const save = useMutation({
    mutationFn: () => contractsApi.changeType(contract.id, code),
    onSuccess: async () => {
      notify(t.typeSaved, { type: 'success' });
      await qc.invalidateQueries({ queryKey: contractKeys.all });
    },
    onError: (err) => failureToasts(err).forEach((m) => notify(m, { type: 'error' })),
  });
  const hint = contract.json === null ? t.typeNeedsJson : locked ? t.typeLocked : undefined;
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}>
      <TextField
        select
        size="small"
        label={t.type}
        value={contractType(code) ? code : ''}
        onChange={(e) => setCode(e.target.value)}
        disabled={contract.json === null || locked}
        helperText={hint ?? (contractType(contract.code) ? undefined : contract.code)}
        sx={{ minWidth: 220, flex: '1 1 220px' }}
        slotProps={{ htmlInput: { 'data-testid': 'contract-type-select' } }}
      >
        {CONTRACT_TYPES.map((ct) => (
          <MenuItem key={ct.code} value={ct.code}>
            {ct.name}
          </MenuItem>
        ))}
      </TextField>
      <Button variant="outlined" disabled={contract.json === null || locked || code === contract.code} loading={save.isPending} onClick={() => save.mutate()} sx={{ minHeight: 40 }}>
        {t.saveType}
      </Button>
    </Box>
  );
}

/** Opens the file in a new window by a short-lived signed link (SPEC §7); the window is opened at the click so no blocker stops it. */
async function openDownload(id: number, onError: (messages: string[]) => void): Promise<void> {
  const win = window.open('', '_blank');
  try {
    const { url } = await contractsApi.downloadLink(id);
    if (win) {
      win.opener = null;
      win.location.href = url;
    } else window.location.assign(url);
  } catch (err) {
    win?.close();
    onError(errorDescriptions(err));
  }
}

function Details({ contract, onDeleted }: { contract: ContractRow; onDeleted: () => void }) {
  const notify = useNotify();
  const qc = useQueryClient();
  const decide = useMutation({
    mutationFn: (status: ContractDecision) => contractsApi.decide(contract.id, status),
    onSuccess: async (row) => {
      notify(row.status === 'formalized' ? t.formalizedToast : t.rejectedToast, { type: 'success' });
      await qc.invalidateQueries({ queryKey: contractKeys.all });
    },
    onError: (err) => failureToasts(err).forEach((m) => notify(m, { type: 'error' })),
  });
  const remove = useMutation({
    mutationFn: (id: number) => contractsApi.remove(id),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: [...contractKeys.all, 'list'] });
      onDeleted();
    },
  });
  const deletion = useItemDeletion<ContractRow>(remove, t.deleted);
  const cpfOk = contract.cpf ? validCpf(contract.cpf) : null;
  return (
    <>
      <DialogContent dividers>
        <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '180px minmax(0, 1fr)' }, columnGap: 2, rowGap: { xs: 0.25, sm: 1.25 }, '& dd': { mb: { xs: 1.25, sm: 0 } } }}>
          <Field label={t.name}>{contract.name}</Field>
          <Field label={t.loanNumber}>{contract.loanNumber ?? t.none}</Field>
          <Field label={t.cpf} testId="contract-cpf">
            {contract.cpf ? (
              <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
                <span>{maskCpf(contract.cpf)}</span>
                <Chip size="small" variant="outlined" color={cpfOk ? 'success' : 'error'} label={cpfOk ? t.cpfValid : t.cpfInvalid} />
              </Box>
            ) : (
              t.none
            )}
          </Field>
          <Field label={t.type}>
            <TypeEdit contract={contract} />
          </Field>
          <Field label={t.status}>
            <StatusChip status={contract.status} />
          </Field>
          {contract.error ? (
            <Field label={t.error}>
              <Typography variant="body2" color="error">
                {contract.error}
              </Typography>
            </Field>
          ) : null}
          {contract.replacedById ? <Field label={t.replacedBy}>#{contract.replacedById}</Field> : null}
          <Field label={t.stamp}>{contract.stamp ? <Stamp stamp={contract.stamp} /> : t.none}</Field>
          <Field label={t.createdAt}>{formatDateTime(contract.createdAt)}</Field>
          <Field label={t.formalized}>{formatDateTime(contract.formalized) || t.none}</Field>
          <Field label={t.file}>
            {contract.path ? (
              <Button size="small" startIcon={<FileDownload />} onClick={() => void openDownload(contract.id, (m) => m.forEach((x) => notify(x, { type: 'error' })))} sx={{ minHeight: 40, textTransform: 'none', justifyContent: 'flex-start', maxWidth: '100%' }}>
                <Box component="span" sx={{ overflowWrap: 'anywhere', textAlign: 'left' }}>
                  {t.download} {contract.fileName}
                </Box>
              </Button>
            ) : (
              t.none
            )}
          </Field>
        </Box>
        <Typography component="h3" variant="subtitle2" sx={{ mt: 2, mb: 0.5 }}>
          {t.json}
        </Typography>
        {contract.json ? (
          <Box component="pre" data-testid="contract-json" sx={{ m: 0, p: 1.5, bgcolor: 'action.hover', borderRadius: 1, overflow: 'auto', maxHeight: 320, fontSize: 13 }}>
            {JSON.stringify(contract.json, null, 2)}
          </Box>
        ) : (
          <Typography variant="body2" color="text.secondary">
            {t.noJson}
          </Typography>
        )}
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        {/* Why it is off, in words: a disabled button shows no tooltip and a title reaches no one. */}
        <Box sx={{ mr: 'auto', display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Button color="error" disabled={contract.status === 'formalized'} aria-describedby={contract.status === 'formalized' ? 'contract-delete-hint' : undefined} onClick={() => deletion.ask(contract)}>
            {t.delete}
          </Button>
          {contract.status === 'formalized' ? (
            <Typography id="contract-delete-hint" variant="caption" color="text.secondary">
              {t.cannotDelete}
            </Typography>
          ) : null}
        </Box>
        {contract.status === 'processed' ? (
          <>
            <Button onClick={() => decide.mutate('rejected')} disabled={decide.isPending}>
              {t.reject}
            </Button>
            <Button variant="contained" onClick={() => decide.mutate('formalized')} loading={decide.isPending}>
              {t.formalize}
            </Button>
          </>
        ) : null}
      </DialogActions>
      <DeleteConfirm title={t.deleteTitle} {...deletion.confirmProps} />
    </>
  );
}

/** The detail modal of /contracts/{id} and /contract/{id}: full screen on a phone. */
export function ContractDetailDialog({ id, onClose }: { id: number; onClose: () => void }) {
  const fullScreen = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const contract = useContract(id);
  return (
    <Dialog open onClose={onClose} fullScreen={fullScreen} maxWidth="md" fullWidth aria-labelledby="contract-detail-title">
      <DialogTitle id="contract-detail-title" sx={{ display: 'flex', alignItems: 'center', gap: 1, pr: 1 }}>
        <Box component="span" sx={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
          {contract.data ? contract.data.name : t.title}
        </Box>
        <Button onClick={onClose}>{t.close}</Button>
      </DialogTitle>
      {contract.isPending ? (
        <DialogContent>
          <Loading />
        </DialogContent>
      ) : contract.isError ? (
        <DialogContent>
          <Alert severity="error">{errorDescriptions(contract.error).join(' ') || t.notFound}</Alert>
        </DialogContent>
      ) : (
        <Details contract={contract.data} onDeleted={onClose} />
      )}
    </Dialog>
  );
}
