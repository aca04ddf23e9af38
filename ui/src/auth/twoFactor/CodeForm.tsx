import { useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import Button from '@mui/material/Button';
import { TwoFactorCodeSchema, TwoFactorEnableSchema } from '../../../../api/twoFactor/schema';
import { FormTextField } from '../../forms/FormTextField';
import { zodResolver } from '../../forms/zodResolver';
import { applyServerErrors } from '../../forms/serverErrors';
import { FormErrors } from '../AuthCard';

interface CodeValues {
  code: string;
}

/**
 * One code field and its button: the app's 6 digits (`kind` 'app', the setup's first code) or either the
 * app's code or a backup code ('any'). Validated by the API's own schema; the server's refusal lands on the
 * field ('Código incorreto…', 'Este código já foi usado…') or, when it is not about the field, above the button.
 */
export function CodeForm({
  kind,
  label,
  submitLabel,
  onSubmit,
  autoFocus = true,
  fullWidthButton = true,
  children,
}: {
  kind: 'app' | 'any';
  label: string;
  submitLabel: string;
  onSubmit: (code: string) => Promise<void>;
  autoFocus?: boolean;
  fullWidthButton?: boolean;
  /** Shown between the field and the button (a link to switch to a backup code). */
  children?: ReactNode;
}) {
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const { control, handleSubmit, setError, formState } = useForm<CodeValues>({
    resolver: zodResolver(kind === 'app' ? TwoFactorEnableSchema : TwoFactorCodeSchema),
    defaultValues: { code: '' },
  });
  const submit = handleSubmit(async (values) => {
    setFormErrors([]);
    try {
      await onSubmit(values.code);
    } catch (err) {
      setFormErrors(applyServerErrors(err, ['code'], setError));
    }
  });
  return (
    <form onSubmit={submit} noValidate>
      <FormTextField
        control={control}
        name="code"
        label={label}
        autoComplete="one-time-code"
        autoFocus={autoFocus}
        required
        slotProps={{ htmlInput: kind === 'app' ? { inputMode: 'numeric', maxLength: 7 } : { maxLength: 24, autoCapitalize: 'none', spellCheck: false } }}
      />
      {children}
      <FormErrors messages={formErrors} />
      <Button type="submit" variant="contained" size="large" fullWidth={fullWidthButton} sx={{ mt: 2 }} loading={formState.isSubmitting}>
        {submitLabel}
      </Button>
    </form>
  );
}
