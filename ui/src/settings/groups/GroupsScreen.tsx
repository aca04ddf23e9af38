import { useController } from 'react-hook-form';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import { GroupCreateSchema } from '../../../../api/groups/schema';
import { texts } from '../../i18n/ptBR';
import { FormTextField } from '../../forms/FormTextField';
import { IdMultiSelect, ResourceScreen, truncate, type ResourceInputsProps, type ResourceScreenConfig } from '../common';
import { inboxKeys } from '../../inbox/queryKeys';
import { screenTexts } from '../common/ResourceScreen';

const t = texts.settingsResources.groups;
const DEFAULT_ICON = '#175CD3';

export interface GroupRow {
  id: number;
  name: string;
  description: string | null;
  icon: string | null;
  members: number[];
}

interface GroupForm {
  name: string;
  description: string;
  icon: string;
  members: number[];
}

function GroupInputs({ control, disabled }: ResourceInputsProps<GroupForm, GroupRow>) {
  const icon = useController({ name: 'icon', control });
  return (
    <>
      <FormTextField control={control} name="name" label={t.name} required disabled={disabled} autoFocus />
      <FormTextField control={control} name="description" label={t.description} multiline minRows={2} disabled={disabled} />
      <TextField
        id="field-icon"
        type="color"
        label={t.icon}
        margin="normal"
        sx={{ width: 160 }}
        disabled={disabled}
        name={icon.field.name}
        value={icon.field.value ?? DEFAULT_ICON}
        onChange={(e) => icon.field.onChange(e.target.value.toUpperCase())}
        inputRef={icon.field.ref}
        error={icon.fieldState.invalid}
        helperText={icon.fieldState.error?.message}
      />
      <IdMultiSelect control={control} name="members" label={t.members} endpoint="/operator" disabled={disabled} />
    </>
  );
}

const config: ResourceScreenConfig<GroupRow, GroupForm> = {
  path: '/settings/groups',
  endpoint: '/group',
  ...screenTexts(t, (row: GroupRow) => row.name),
  columns: [
    {
      label: t.columns.name,
      render: (row) => (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <Box component="span" aria-hidden sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: row.icon ?? DEFAULT_ICON }} />
          {row.name}
        </Box>
      ),
    },
    { label: t.columns.description, render: (row) => truncate(row.description, 45), title: (row) => row.description ?? undefined },
    { label: t.columns.members, render: (row) => row.members.length },
  ],
  schema: GroupCreateSchema,
  toForm: (row) => ({ name: row?.name ?? '', description: row?.description ?? '', icon: row?.icon ?? DEFAULT_ICON, members: row?.members ?? [] }),
  fields: ['name', 'description', 'icon', 'members'],
  Inputs: GroupInputs,
  // The inbox's group menu reads them too (cached for minutes).
  invalidates: [inboxKeys.groups()],
  toasts: { created: t.saved, updated: t.saved, deleted: t.deleted },
};

/** /settings/groups/:id? — level 6+ (SPEC §6). */
export function GroupsScreen() {
  return <ResourceScreen config={config} />;
}
