import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';

/** A select of one id from a small reference list; with `emptyLabel`, '' stands for null ('Nenhum', 'Sempre'). */
export function IdSelect<T extends FieldValues>({
  control,
  name,
  label,
  choices,
  emptyLabel,
  required,
  disabled,
}: {
  control: Control<T>;
  name: FieldPath<T>;
  label: string;
  choices: { id: number; name: string }[];
  emptyLabel?: string;
  required?: boolean;
  disabled?: boolean;
}) {
  const { field, fieldState } = useController({ name, control });
  const value = field.value as number | null | undefined;
  return (
    <TextField
      select
      id={`field-${name}`}
      label={label}
      required={required}
      disabled={disabled}
      fullWidth
      margin="normal"
      value={value ?? ''}
      onChange={(e) => field.onChange(e.target.value === '' ? null : Number(e.target.value))}
      onBlur={field.onBlur}
      inputRef={field.ref}
      error={fieldState.invalid}
      helperText={fieldState.error?.message}
    >
      {emptyLabel !== undefined ? <MenuItem value="">{emptyLabel}</MenuItem> : null}
      {choices.map((c) => (
        <MenuItem key={c.id} value={c.id}>
          {c.name}
        </MenuItem>
      ))}
    </TextField>
  );
}
