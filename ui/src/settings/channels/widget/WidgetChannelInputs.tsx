import { Controller, type Control } from 'react-hook-form';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import { texts } from '../../../i18n/ptBR';
import { FormTextField } from '../../../forms/FormTextField';

const t = texts.channels.widget;

export interface WidgetChannelForm {
  description: string;
  avatar: string;
}

/** The fields shared by the new and the edit page: description and main colour (SPEC §3 Chat widget). */
export function WidgetChannelInputs({ control }: { control: Control<WidgetChannelForm> }) {
  return (
    <>
      <FormTextField control={control} name="description" label={t.description} helperText={t.descriptionHelp} required slotProps={{ htmlInput: { maxLength: 120 } }} />
      <Controller
        control={control}
        name="avatar"
        render={({ field, fieldState }) => (
          <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1.5 }}>
            <TextField
              id="field-avatar"
              label={t.color}
              name={field.name}
              value={field.value ?? ''}
              onChange={field.onChange}
              onBlur={field.onBlur}
              inputRef={field.ref}
              error={fieldState.invalid}
              helperText={fieldState.error?.message ?? t.colorHelp}
              required
              margin="normal"
              sx={{ flex: 1 }}
              slotProps={{ htmlInput: { maxLength: 7, spellCheck: false } }}
            />
            <Box
              component="input"
              type="color"
              aria-label={t.colorPicker}
              value={/^#[0-9a-fA-F]{6}$/.test(field.value ?? '') ? field.value.toLowerCase() : '#000000'}
              onChange={(e) => field.onChange((e.target as HTMLInputElement).value.toUpperCase())}
              sx={{ mt: 2, width: 56, height: 56, p: 0.5, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'background.paper', cursor: 'pointer' }}
            />
          </Box>
        )}
      />
    </>
  );
}
