import { useQuery } from '@tanstack/react-query';
import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { fetchAll } from './resourceApi';

/** A multi-select of ids from a small reference list (agents of a group, groups of an invite). */
export function IdMultiSelect<T extends FieldValues, Option extends { id: number; name: string }>({
  control,
  name,
  label,
  endpoint,
  disabled,
}: {
  control: Control<T>;
  name: FieldPath<T>;
  label: string;
  endpoint: string;
  disabled?: boolean;
}) {
  const { field, fieldState } = useController({ name, control });
  const { data: options = [], isPending } = useQuery({ queryKey: ['settings', endpoint, 'all'], queryFn: ({ signal }) => fetchAll<Option>(endpoint, signal) });
  const ids: number[] = field.value ?? [];
  const value = options.filter((o) => ids.includes(o.id));
  return (
    <Autocomplete
      multiple
      id={`field-${name}`}
      options={options}
      loading={isPending}
      value={value}
      disabled={disabled}
      getOptionLabel={(o) => o.name}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      onChange={(_, selected) => field.onChange(selected.map((o) => o.id))}
      renderInput={(params) => <TextField {...params} label={label} margin="normal" error={fieldState.invalid} helperText={fieldState.error?.message} inputRef={field.ref} />}
    />
  );
}
