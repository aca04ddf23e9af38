import { useController } from 'react-hook-form';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import { TagCreateSchema, type TagCreateReq } from '../../../../api/tags/schema';
import { TAG_COLOR_PAIRS } from '../../../../api/tags/colors';
import { texts } from '../../i18n/ptBR';
import { FormTextField } from '../../forms/FormTextField';
import { ColorSwatch, ResourceScreen, type ResourceInputsProps, type ResourceScreenConfig } from '../common';
import { inboxKeys } from '../../inbox/queryKeys';
import { screenTexts } from '../common/ResourceScreen';

const t = texts.settingsResources.tags;

export interface TagRow {
  id: number;
  name: string;
  color: string;
  textColor: string;
}

/** The 12 preset pairs as swatches; choosing one sets both colours (SPEC §3 Tag). */
function TagInputs({ control, disabled }: ResourceInputsProps<TagCreateReq, TagRow>) {
  const color = useController({ name: 'color', control });
  const textColor = useController({ name: 'textColor', control });
  const name = useController({ name: 'name', control }).field.value || t.name;
  return (
    <>
      <FormTextField control={control} name="name" label={t.name} required disabled={disabled} autoFocus />
      <FormLabel component="legend" id="tag-color-label" sx={{ mt: 2, mb: 1 }}>
        {t.color}
      </FormLabel>
      <Box role="radiogroup" aria-labelledby="tag-color-label" sx={{ display: 'grid', gridTemplateColumns: 'repeat(4, 1fr)', gap: 1 }}>
        {TAG_COLOR_PAIRS.map((pair) => {
          const checked = color.field.value?.toUpperCase() === pair.color;
          return (
            <ButtonBase
              key={pair.color}
              role="radio"
              aria-checked={checked}
              aria-label={`${t.color} ${pair.color}`}
              disabled={disabled}
              onClick={() => {
                color.field.onChange(pair.color);
                textColor.field.onChange(pair.textColor);
              }}
              sx={{ p: 0.75, borderRadius: 1.5, border: 2, borderColor: checked ? 'primary.main' : 'transparent', justifyContent: 'flex-start', overflow: 'hidden' }}
            >
              <ColorSwatch color={pair.color} textColor={pair.textColor} label={name} />
            </ButtonBase>
          );
        })}
      </Box>
      {color.fieldState.error ? <FormHelperText error>{color.fieldState.error.message}</FormHelperText> : null}
    </>
  );
}

const config: ResourceScreenConfig<TagRow, TagCreateReq> = {
  path: '/settings/tags',
  endpoint: '/label',
  ...screenTexts(t, (row: TagRow) => row.name),
  columns: [
    { label: t.columns.name, render: (row) => row.name },
    { label: t.columns.color, render: (row) => <ColorSwatch color={row.color} textColor={row.textColor} label={row.name} /> },
  ],
  schema: TagCreateSchema,
  toForm: (row) => ({ name: row?.name ?? '', color: row?.color ?? TAG_COLOR_PAIRS[0].color, textColor: row?.textColor ?? TAG_COLOR_PAIRS[0].textColor }),
  fields: ['name', 'color', 'textColor'],
  Inputs: TagInputs,
  // The inbox's tags menu reads them too (cached for minutes).
  invalidates: [inboxKeys.tags()],
  toasts: { created: t.created, updated: t.updated, deleted: t.deleted },
};

/** /settings/tags/:id? — every level (SPEC §6). */
export function TagsScreen() {
  return <ResourceScreen config={config} />;
}
