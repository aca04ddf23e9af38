import { useState, type KeyboardEvent } from 'react';
import { useNotify } from 'react-admin';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Check from '@mui/icons-material/Check';
import Close from '@mui/icons-material/Close';
import EditOutlined from '@mui/icons-material/EditOutlined';
import { CustomerUpdateSchema } from '../../../../api/customers/schema';
import { texts } from '../../i18n/ptBR';
import { format } from '../../i18n/format';
import { HttpError } from '../../providers/httpClient';
import { failureToasts } from '../../forms/serverErrors';
import { useUpdateCustomer, type CustomerUpdate } from './contactApi';
import type { Customer } from './types';

const t = texts.inboxPanels.contact;

type FixedField = 'name' | 'email' | 'phone';

const FIELDS: { key: FixedField; label: string; type: string }[] = [
  { key: 'name', label: t.name, type: 'text' },
  { key: 'email', label: t.email, type: 'email' },
  { key: 'phone', label: t.phone, type: 'tel' },
];

/** The fixed properties (SPEC §3 Customer: name, e-mail, phone), each edited in place; validated like the API. */
export function FixedFields({ customer }: { customer: Customer }) {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 0.5 }}>
      {FIELDS.map((f) => (
        <InlineField key={f.key} customer={customer} field={f.key} label={f.label} type={f.type} />
      ))}
    </Box>
  );
}

function InlineField({ customer, field, label, type }: { customer: Customer; field: FixedField; label: string; type: string }) {
  const notify = useNotify();
  const update = useUpdateCustomer(customer.id);
  const current = customer[field] ?? '';
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const editing = draft !== null;
  const id = `contact-${field}`;

  const cancel = () => {
    setDraft(null);
    setError(null);
  };
  const save = async () => {
    if (draft === null) return;
    const value = draft.trim();
    if (value === current) return cancel();
    const checked = CustomerUpdateSchema.safeParse({ [field]: value });
    if (!checked.success) return setError(checked.error.issues[0]?.message ?? texts.errors.required);
    const body: CustomerUpdate = { [field]: value || null };
    try {
      await update.mutateAsync(body);
      notify(t.saved, { type: 'success' });
      cancel();
    } catch (err) {
      const own = err instanceof HttpError ? err.fieldErrors[field] : undefined;
      if (own) setError(own);
      else for (const message of failureToasts(err)) notify(message, { type: 'error' });
    }
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      void save();
    } else if (e.key === 'Escape') {
      e.stopPropagation();
      cancel();
    }
  };

  if (editing) {
    return (
      <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.5 }}>
        <TextField
          id={id}
          label={label}
          type={type}
          size="small"
          fullWidth
          autoFocus
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
          error={Boolean(error)}
          helperText={error ?? undefined}
          disabled={update.isPending}
        />
        <IconButton size="small" aria-label={format(t.saveField, { field: label })} onClick={() => void save()} disabled={update.isPending} sx={{ mt: 0.5 }}>
          <Check fontSize="small" />
        </IconButton>
        <IconButton size="small" aria-label={t.cancelEdit} onClick={cancel} disabled={update.isPending} sx={{ mt: 0.5 }}>
          <Close fontSize="small" />
        </IconButton>
      </Box>
    );
  }
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, minWidth: 0 }}>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography variant="caption" color="text.secondary" component="div">
          {label}
        </Typography>
        <Typography fontSize={14} noWrap title={current || undefined} color={current ? 'text.primary' : 'text.disabled'} data-testid={id}>
          {current || t.notSet}
        </Typography>
      </Box>
      <IconButton size="small" aria-label={format(t.editField, { field: label })} onClick={() => setDraft(current)}>
        <EditOutlined fontSize="small" />
      </IconButton>
    </Box>
  );
}
