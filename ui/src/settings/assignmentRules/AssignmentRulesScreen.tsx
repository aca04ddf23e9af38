import { useController } from 'react-hook-form';
import { useQuery } from '@tanstack/react-query';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Switch from '@mui/material/Switch';
import { AssignmentRuleCreateSchema } from '../../../../api/assignment/schema';
import { texts } from '../../i18n/ptBR';
import { FormTextField } from '../../forms/FormTextField';
import { IdSelect, ResourceScreen, switchColumn, type ResourceInputsProps, type ResourceScreenConfig } from '../common';
import { choicesKey, ruleChoices, setRuleActive, type AssignmentRuleRow, type Choice } from './assignmentRulesApi';
import { screenTexts } from '../common/ResourceScreen';

const t = texts.assignmentRules;

interface Form {
  name: string;
  isActive: boolean;
  rules: { workspacePlatformId: number; group: number | null; operator: number | null; businessHours: number | null };
}

const useChoices = () => useQuery({ queryKey: choicesKey, queryFn: ruleChoices });

/** Name, active, channel, and a group and/or an agent, with an optional schedule. */
function RuleInputs({ control, disabled }: ResourceInputsProps<Form, AssignmentRuleRow>) {
  const { data: choices } = useChoices();
  const active = useController({ name: 'isActive', control });
  return (
    <>
      {!choices ? <LinearProgress aria-label={texts.common.loading} sx={{ mb: 2 }} /> : null}
      <FormTextField control={control} name="name" label={t.name} required disabled={disabled} autoFocus />
      <FormControlLabel control={<Switch checked={!!active.field.value} disabled={disabled} onChange={(e) => active.field.onChange(e.target.checked)} />} label={t.isActive} />
      <IdSelect control={control} name="rules.workspacePlatformId" label={t.channel} choices={choices?.channels ?? []} required disabled={disabled} />
      <IdSelect control={control} name="rules.group" label={t.group} choices={choices?.groups ?? []} emptyLabel={t.none} disabled={disabled} />
      <IdSelect control={control} name="rules.operator" label={t.operator} choices={choices?.operators ?? []} emptyLabel={t.none} disabled={disabled} />
      <IdSelect control={control} name="rules.businessHours" label={t.businessHours} choices={choices?.businessHours ?? []} emptyLabel={t.always} disabled={disabled} />
    </>
  );
}

/** A list cell naming a referenced record (channel, group, agent) from the cached choices. */
function ChoiceNames({ refs }: { refs: { kind: 'channels' | 'groups' | 'operators'; id: number | null | undefined }[] }) {
  const { data: choices } = useChoices();
  const nameOf = (list: Choice[] | undefined, id: number) => list?.find((c) => c.id === id)?.name ?? `#${id}`;
  return <>{refs.flatMap((r) => (r.id == null ? [] : [nameOf(choices?.[r.kind], r.id)])).join(' · ')}</>;
}

const config: ResourceScreenConfig<AssignmentRuleRow, Form> = {
  path: '/settings/assignment-rules',
  endpoint: '/assignment-rules',
  ...screenTexts(t, () => t.editTitle),
  detail: 'page',
  columns: [
    { label: t.columns.name, render: (row) => row.name },
    { label: t.columns.channel, render: (row) => <ChoiceNames refs={[{ kind: 'channels', id: row.rules.workspacePlatformId }]} /> },
    {
      label: t.columns.target,
      render: (row) => (
        <ChoiceNames
          refs={[
            { kind: 'groups', id: row.rules.group },
            { kind: 'operators', id: row.rules.operator },
          ]}
        />
      ),
    },
    // SPEC §2: the active toggle in the list.
    switchColumn<AssignmentRuleRow>({
      label: t.columns.active,
      endpoint: '/assignment-rules',
      checked: (row) => row.isActive,
      ariaLabel: (row) => `${t.isActive}: ${row.name}`,
      save: (row, isActive) => setRuleActive(row.id, isActive),
      toast: t.saved,
    }),
  ],
  schema: AssignmentRuleCreateSchema,
  toForm: (row) => ({
    name: row?.name ?? '',
    isActive: row?.isActive ?? true,
    rules: {
      workspacePlatformId: row?.rules.workspacePlatformId,
      group: row?.rules.group ?? null,
      operator: row?.rules.operator ?? null,
      businessHours: row?.rules.businessHours ?? null,
    },
  }),
  fields: ['name', 'rules.workspacePlatformId', 'rules.group', 'rules.operator', 'rules.businessHours'],
  Inputs: RuleInputs,
  deleteTitle: t.deleteTitle,
  // SPEC §8: 'Regra criada/atualizada.' for both.
  toasts: { created: t.saved, updated: t.saved, deleted: t.deleted },
};

/** /settings/assignment-rules/:id? — level 6+ (SPEC §6). */
export function AssignmentRulesScreen() {
  return <ResourceScreen config={config} />;
}
