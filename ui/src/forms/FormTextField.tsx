import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';

type Props<T extends FieldValues> = Omit<TextFieldProps, 'name' | 'value' | 'onChange' | 'onBlur' | 'error'> & {
  name: FieldPath<T>;
  control: Control<T>;
};

/**
 * A labelled MUI text field bound to react-hook-form. The error text is the helper text, which MUI
 * ties to the input with aria-describedby; aria-invalid follows the error.
 */
export function FormTextField<T extends FieldValues>({ name, control, helperText, id, ...props }: Props<T>) {
  const { field, fieldState } = useController({ name, control });
  return (
    <TextField
      {...props}
      id={id ?? `field-${name}`}
      name={field.name}
      value={field.value ?? ''}
      onChange={field.onChange}
      onBlur={field.onBlur}
      inputRef={field.ref}
      error={fieldState.invalid}
      helperText={fieldState.error?.message ?? helperText}
      fullWidth={props.fullWidth ?? true}
      margin={props.margin ?? 'normal'}
    />
  );
}
