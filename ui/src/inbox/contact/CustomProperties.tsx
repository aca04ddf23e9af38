import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { DeleteConfirm, useItemDeletion } from '../../common/DeleteConfirm';
import { EditDeleteButtons } from '../../common/EditDeleteButtons';
import { useNotify } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import { CustomerPropertySchema } from '../../../../api/customers/schema';
import { texts } from '../../i18n/ptBR';
import { format } from '../../i18n/format';
import { HttpError } from '../../providers/httpClient';
import { failureToasts } from '../../forms/serverErrors';
import { useDeleteProperty, useSaveProperty } from './contactApi';
import type { Customer, CustomerProperty } from './types';
import { EmptyNote } from './SectionList';

const t = texts.inboxPanels.contact;

/** Custom properties of the contact: add, edit and delete (with confirmation). */
export function CustomProperties({ customer }: { customer: Customer }) {
  const deletion = useItemDeletion<CustomerProperty>(useDeleteProperty(customer.id), texts.inboxPanels.deleted);
  // null: no form; 'new': the add form; a property: editing it.
  const [editing, setEditing] = useState<CustomerProperty | 'new' | null>(null);


  return (
    <Box>
      <Typography variant="caption" color="text.secondary" component="h4" sx={{ fontWeight: 600, display: 'block', mt: 1.5, mb: 0.5 }}>
        {t.customProperties}
      </Typography>
      {customer.properties.length === 0 && editing !== 'new' ? (
        <EmptyNote>{t.noProperties}</EmptyNote>
      ) : null}
      <Box component="ul" aria-label={t.customProperties} sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {customer.properties.map((p) =>
          editing !== null && editing !== 'new' && editing.id === p.id ? (
            <li key={p.id}>
              <PropertyForm customerId={customer.id} property={p} onDone={() => setEditing(null)} />
            </li>
          ) : (
            <Box component="li" key={p.id} data-testid="contact-property" sx={{ display: 'flex', alignItems: 'center', gap: 0.5, minWidth: 0 }}>
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <Typography variant="caption" color="text.secondary" component="div" noWrap>
                  {p.label}
                </Typography>
                <Typography fontSize={14} noWrap title={p.value}>
                  {p.value}
                </Typography>
              </Box>
              <EditDeleteButtons editLabel={format(t.editProperty, { label: p.label })} deleteLabel={format(t.deleteProperty, { label: p.label })} onEdit={() => setEditing(p)} onDelete={() => deletion.ask(p)} />
            </Box>
          ),
        )}
      </Box>
      {editing === 'new' ? (
        <PropertyForm customerId={customer.id} onDone={() => setEditing(null)} />
      ) : (
        <Button size="small" startIcon={<Add />} onClick={() => setEditing('new')} sx={{ mt: 0.5 }}>
          {t.addProperty}
        </Button>
      )}
      <DeleteConfirm {...deletion.confirmProps} title={format(t.deletePropertyTitle, { label: deletion.item?.label ?? '' })} />
    </Box>
  );
}

/** SPEC §5: custom property name and value required (CustomerPropertySchema, as the API checks). */
function PropertyForm({ customerId, property, onDone }: { customerId: number; property?: CustomerProperty; onDone: () => void }) {
  const notify = useNotify();
  const save = useSaveProperty(customerId);
  const [label, setLabel] = useState(property?.label ?? '');
  const [value, setValue] = useState(property?.value ?? '');
  const [errors, setErrors] = useState<{ label?: string; value?: string }>({});
  const prefix = property ? `contact-property-${property.id}` : 'contact-property-new';

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const checked = CustomerPropertySchema.safeParse({ ...(property ? { id: property.id } : {}), label, value });
    if (!checked.success) {
      const found: { label?: string; value?: string } = {};
      for (const issue of checked.error.issues) {
        const key = issue.path[0];
        if ((key === 'label' || key === 'value') && !found[key]) found[key] = issue.message;
      }
      setErrors(found);
      return;
    }
    try {
      await save.mutateAsync(checked.data);
      onDone();
    } catch (err) {
      const fields = err instanceof HttpError ? err.fieldErrors : {};
      if (fields.label || fields.value) setErrors({ label: fields.label, value: fields.value });
      else for (const message of failureToasts(err)) notify(message, { type: 'error' });
    }
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      onDone();
    }
  };

  return (
    <Box component="form" onSubmit={(e: FormEvent) => {
        // Never a submit of a form around the panel.
        e.stopPropagation();
        void submit(e);
      }} onKeyDown={onKeyDown} noValidate sx={{ display: 'flex', flexDirection: 'column', gap: 1, py: 1 }}>
      <TextField
        id={`${prefix}-label`}
        label={t.propertyLabel}
        size="small"
        required
        autoFocus
        value={label}
        onChange={(e) => setLabel(e.target.value)}
        error={Boolean(errors.label)}
        helperText={errors.label}
      />
      <TextField
        id={`${prefix}-value`}
        label={t.propertyValue}
        size="small"
        required
        value={value}
        onChange={(e) => setValue(e.target.value)}
        error={Boolean(errors.value)}
        helperText={errors.value}
      />
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1 }}>
        <Button size="small" onClick={onDone}>
          {texts.common.cancel}
        </Button>
        <Button size="small" type="submit" variant="contained" loading={save.isPending}>
          {texts.common.save}
        </Button>
      </Box>
    </Box>
  );
}
