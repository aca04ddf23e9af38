import Autocomplete from '@mui/material/Autocomplete';
import MenuItem from '@mui/material/MenuItem';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import type { Choice } from '../botTypes';

/** Small controlled inputs for the editor's dialogs: value in, value out, the error under the field. */

type Base = { id: string; label: string; error?: string; required?: boolean; helperText?: string };

/** What every input here shows the same way: its id, label and `required` (and any other TextField prop given), full width, the error or the help under it. */
function fieldProps<P extends Base>({ error, helperText, ...props }: P) {
  return { ...props, fullWidth: true, margin: 'dense' as const, error: !!error, helperText: error ?? helperText };
}

export function TextInput({ value, onChange, ...field }: Base & { value: string | null | undefined; onChange(v: string): void } & Pick<TextFieldProps, 'multiline' | 'minRows' | 'autoFocus' | 'placeholder'>) {
  return <TextField {...fieldProps(field)} value={value ?? ''} onChange={(e) => onChange(e.target.value)} />;
}

/** A number field; an empty or non-numeric entry is passed on as NaN so the schema names it. */
export function NumberInput({ value, onChange, ...field }: Base & { value: number | undefined; onChange(v: number): void }) {
  return (
    <TextField
      {...fieldProps(field)}
      type="number"
      value={value === undefined || Number.isNaN(value) ? '' : value}
      onChange={(e) => onChange(e.target.value === '' ? Number.NaN : Number(e.target.value))}
    />
  );
}

export function SelectInput<V extends string | number>({ value, onChange, options, emptyLabel, ...field }: Base & { value: V | null | undefined; onChange(v: V | null): void; options: { value: V; label: string }[]; emptyLabel?: string }) {
  return (
    <TextField
      select
      {...fieldProps(field)}
      value={value ?? ''}
      onChange={(e) => {
        const raw = e.target.value;
        if (raw === '') return onChange(null);
        const match = options.find((o) => String(o.value) === String(raw));
        onChange(match ? match.value : null);
      }}
    >
      {emptyLabel !== undefined ? <MenuItem value="">{emptyLabel}</MenuItem> : null}
      {options.map((o) => (
        <MenuItem key={String(o.value)} value={o.value}>
          {o.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

export function MultiSelect({ id, label, value, onChange, choices, error, helperText }: Base & { value: number[]; onChange(v: number[]): void; choices: Choice[] }) {
  const selected = choices.filter((c) => value.includes(c.id));
  return (
    <Autocomplete
      multiple
      id={id}
      options={choices}
      value={selected}
      getOptionLabel={(o) => o.name}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      onChange={(_, list) => onChange(list.map((o) => o.id))}
      renderInput={(params) => <TextField {...params} label={label} margin="dense" error={!!error} helperText={error ?? helperText} />}
    />
  );
}

/** The first error of an array field (`channels.1`) shown on the field itself. */
export function firstUnder(errors: Record<string, string>, key: string): string | undefined {
  return errors[key] ?? Object.entries(errors).find(([k]) => k.startsWith(`${key}.`))?.[1];
}
