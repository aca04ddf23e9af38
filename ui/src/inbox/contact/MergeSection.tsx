import { useEffect, useState } from 'react';
import { useNotify } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import MergeType from '@mui/icons-material/MergeType';
import { texts } from '../../i18n/ptBR';
import { format } from '../../i18n/format';
import { failureToasts } from '../../forms/serverErrors';
import { useSession } from '../../providers/session';
import { renderCustomerOption } from '../../common/CustomerOption';
import { CUSTOMER_SEARCH_LIMIT, useMergeCustomer } from './contactApi';
import { apiList } from './listApi';
import { useDebounced } from '../../common/useDebounced';
import type { Customer, CustomerSummary } from './types';
import { displayNameOf } from './displayName';

const t = texts.inboxPanels.contact;

/** SPEC §6: merging contacts is for MASTER (6) and above. */
const MERGE_LEVEL = 6;

export function MergeSection({ customer }: { customer: Customer }) {
  const session = useSession();
  const [open, setOpen] = useState(false);
  if ((session?.workspace.accessLevel ?? 0) < MERGE_LEVEL) {
    return (
      <Alert severity="info" sx={{ py: 0 }}>
        {t.mergeOnlyMaster}
      </Alert>
    );
  }
  return (
    <>
      <Button size="small" variant="outlined" startIcon={<MergeType />} onClick={() => setOpen(true)}>
        {t.merge}
      </Button>
      <MergeDialog open={open} customer={customer} onClose={() => setOpen(false)} />
    </>
  );
}

function useCustomerSearch(text: string, exceptId: number, enabled: boolean) {
  const query = useDebounced(text.trim());
  const result = useQuery({
    queryKey: ['inbox', 'customerSearch', query],
    queryFn: ({ signal }) => apiList<CustomerSummary>('/customer/all-customers', { query, limit: CUSTOMER_SEARCH_LIMIT }, signal),
    enabled,
    staleTime: 15_000,
  });
  return { options: (result.data?.data ?? []).filter((c) => c.id !== exceptId), loading: result.isFetching };
}

/** Pick the other contact, confirm, merge: this contact stays, the picked one is folded into it. */
function MergeDialog({ open, customer, onClose }: { open: boolean; customer: Customer; onClose: () => void }) {
  const notify = useNotify();
  const merge = useMergeCustomer(customer.id);
  const [text, setText] = useState('');
  const [picked, setPicked] = useState<CustomerSummary | null>(null);
  const search = useCustomerSearch(text, customer.id, open);
  useEffect(() => {
    if (!open) {
      setText('');
      setPicked(null);
    }
  }, [open]);

  const confirm = async () => {
    if (!picked) return;
    try {
      await merge.mutateAsync(picked.id);
      notify(t.merged, { type: 'success' });
      onClose();
    } catch (err) {
      for (const message of failureToasts(err)) notify(message, { type: 'error' });
    }
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="merge-title" aria-describedby="merge-help">
      <DialogTitle id="merge-title">{picked ? t.mergeConfirmTitle : t.merge}</DialogTitle>
      <DialogContent dividers>
        {picked ? (
          <DialogContentText id="merge-help">{format(t.mergeConfirm, { leave: displayNameOf(picked), stay: displayNameOf(customer) })}</DialogContentText>
        ) : (
          <>
            <DialogContentText id="merge-help" sx={{ mb: 1 }}>
              {format(t.mergeHelp, { name: displayNameOf(customer) })}
            </DialogContentText>
            <Autocomplete
              id="merge-customer"
              options={search.options}
              loading={search.loading}
              filterOptions={(x) => x}
              getOptionLabel={(o) => displayNameOf(o)}
              isOptionEqualToValue={(a, b) => a.id === b.id}
              inputValue={text}
              onInputChange={(_e, v) => setText(v)}
              onChange={(_e, v) => setPicked(v)}
              noOptionsText={t.mergeNoResults}
              loadingText={texts.common.loading}
              renderOption={renderCustomerOption<CustomerSummary>((o) => [o.phone, o.email].filter(Boolean).join(' · '))}
              renderInput={(params) => <TextField {...params} label={t.mergeSearch} autoFocus margin="dense" />}
            />
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={picked ? () => setPicked(null) : onClose}>{texts.common.cancel}</Button>
        <Button variant="contained" color="warning" disabled={!picked} loading={merge.isPending} onClick={() => void confirm()}>
          {t.mergeSubmit}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
