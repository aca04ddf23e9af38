import { useController } from 'react-hook-form';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import { normalizeQuickPhraseTag, QuickPhraseSchema } from '../../../../api/quickPhrases/schema';
import { texts } from '../../i18n/ptBR';
import { FormTextField } from '../../forms/FormTextField';
import { ResourceScreen, truncate, type ResourceInputsProps, type ResourceScreenConfig } from '../common';
import { quickPhrasesKey } from '../../inbox/quickPhrases/useQuickPhrases';
import { screenTexts } from '../common/ResourceScreen';

const t = texts.settingsResources.quickPhrases;

export interface QuickPhraseRow {
  id: number;
  phrase: string;
  tag: string;
  privacy: 'public' | 'private';
  hotkey: string | null;
}

interface QuickPhraseForm {
  phrase: string;
  tag: string;
  privacy: 'public' | 'private';
  /** Not edited here; carried so an update keeps it. */
  hotkey: string | null;
}

/** The normalised tag while typing: a trailing space is the start of the next word, not one to trim. */
const liveTag = (value: string) => normalizeQuickPhraseTag(`${value}.`).slice(0, -1);

/** The tag field shows the normalised tag as the user types (SPEC §5); an empty field stays empty. */
function QuickPhraseInputs({ control, disabled }: ResourceInputsProps<QuickPhraseForm, QuickPhraseRow>) {
  const tag = useController({ name: 'tag', control });
  const privacy = useController({ name: 'privacy', control });
  return (
    <>
      <TextField
        id="field-tag"
        label={t.tag}
        required
        fullWidth
        margin="normal"
        disabled={disabled}
        autoFocus
        name={tag.field.name}
        value={tag.field.value ?? ''}
        onChange={(e) => tag.field.onChange(e.target.value === '' ? '' : liveTag(e.target.value))}
        onBlur={tag.field.onBlur}
        inputRef={tag.field.ref}
        error={tag.fieldState.invalid}
        helperText={tag.fieldState.error?.message ?? t.tagHelp}
      />
      <FormTextField control={control} name="phrase" label={t.phrase} required multiline minRows={3} disabled={disabled} />
      <FormControl margin="normal" error={privacy.fieldState.invalid} disabled={disabled}>
        <FormLabel id="privacy-label">{t.privacy}</FormLabel>
        <RadioGroup row aria-labelledby="privacy-label" value={privacy.field.value ?? ''} onChange={(e) => privacy.field.onChange(e.target.value)}>
          <FormControlLabel value="public" control={<Radio />} label={t.public} />
          <FormControlLabel value="private" control={<Radio />} label={t.private} />
        </RadioGroup>
        {privacy.fieldState.error ? <FormHelperText>{privacy.fieldState.error.message}</FormHelperText> : null}
      </FormControl>
    </>
  );
}

const config: ResourceScreenConfig<QuickPhraseRow, QuickPhraseForm> = {
  path: '/settings/quick-phrases',
  endpoint: '/inbox/quick-phrases',
  ...screenTexts(t, (row: QuickPhraseRow) => row.tag),
  columns: [
    { label: t.columns.tag, render: (row) => row.tag },
    // SPEC §9: phrase description truncated at 45.
    { label: t.columns.phrase, render: (row) => truncate(row.phrase, 45), title: (row) => row.phrase },
    { label: t.columns.privacy, render: (row) => (row.privacy === 'public' ? t.public : t.private) },
  ],
  schema: QuickPhraseSchema,
  toForm: (row) => ({ phrase: row?.phrase ?? '', tag: row?.tag ?? '', privacy: row?.privacy ?? 'public', hotkey: row?.hotkey ?? null }),
  fields: ['phrase', 'tag', 'privacy'],
  Inputs: QuickPhraseInputs,
  // The composer's '/' menu reads them too.
  invalidates: [quickPhrasesKey],
  toasts: { created: t.created, updated: t.updated, deleted: t.deleted },
};

/** /settings/quick-phrases/:id? — every level; private phrases are listed only to their owner (the API filters). */
export function QuickPhrasesScreen() {
  return <ResourceScreen config={config} />;
}
