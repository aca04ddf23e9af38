import { useController, useFormState, type FieldErrors } from 'react-hook-form';
import { BusinessHoursCreateSchema } from '../../../../api/businessHours/schema';
import { defaultDays } from '../../../../api/businessHours/schedule';
import { WEEK_DAYS } from '../../../../api/businessHours/week';
import type { WeekSchedule } from '../../../../api/models/BusinessHours';
import { texts } from '../../i18n/ptBR';
import { format } from '../../i18n/format';
import { FormTextField } from '../../forms/FormTextField';
import { ResourceScreen, type ResourceInputsProps, type ResourceScreenConfig } from '../common';
import { DayHoursEditor } from './DayHoursEditor';
import { screenTexts } from '../common/ResourceScreen';

const t = texts.businessHours;

/** A schedule as /api/business-hours answers it. */
export interface BusinessHoursRow {
  id: number;
  name: string;
  days: WeekSchedule;
  sort: number;
}

interface Form {
  name: string;
  days: WeekSchedule;
}

/** The first message under a day's key, wherever zod put it (hours, a range, a slot). */
function dayError(errors: FieldErrors<Form>, day: string): string | undefined {
  const find = (node: unknown): string | undefined => {
    if (!node || typeof node !== 'object') return undefined;
    const message = (node as { message?: unknown }).message;
    if (typeof message === 'string') return message;
    for (const child of Object.values(node)) {
      const m = find(child);
      if (m) return m;
    }
    return undefined;
  };
  return find((errors.days as Record<string, unknown> | undefined)?.[day]);
}

/** Name and, per weekday, the open toggle ('Fechado o dia todo' when off) and 15-minute ranges. */
function BusinessHoursInputs({ control, disabled }: ResourceInputsProps<Form, BusinessHoursRow>) {
  const days = useController({ name: 'days', control });
  const { errors } = useFormState({ control });
  const value = days.field.value;
  return (
    <>
      <FormTextField control={control} name="name" label={t.name} required disabled={disabled} autoFocus />
      {WEEK_DAYS.map((d) => (
        <DayHoursEditor key={d} day={d} value={value[d]} error={dayError(errors, d)} disabled={disabled} onChange={(next) => days.field.onChange({ ...value, [d]: next })} />
      ))}
    </>
  );
}

const activeDays = (row: BusinessHoursRow) =>
  WEEK_DAYS.filter((d) => row.days[d]?.active)
    .map((d) => t.days[d].slice(0, 3))
    .join(', ');

const config: ResourceScreenConfig<BusinessHoursRow, Form> = {
  path: '/settings/business-hours',
  endpoint: '/business-hours',
  ...screenTexts(t, () => t.editTitle),
  // The week editor is long: a page of its own.
  detail: 'page',
  columns: [
    { label: t.columns.name, render: (row) => row.name },
    { label: t.columns.days, render: activeDays },
  ],
  schema: BusinessHoursCreateSchema,
  toForm: (row) => ({ name: row?.name ?? '', days: row?.days ?? defaultDays() }),
  fields: ['name', ...WEEK_DAYS.map((d) => `days.${d}.hours`)],
  Inputs: BusinessHoursInputs,
  deleteTitle: t.deleteTitle,
  // SPEC §8: 'Horário {name} atualizado/criado'.
  toasts: { created: (row) => format(t.created, { name: row.name }), updated: (row) => format(t.updated, { name: row.name }), deleted: t.deleted },
};

/** /settings/business-hours/:id? — level 6+ (SPEC §6). */
export function BusinessHoursScreen() {
  return <ResourceScreen config={config} />;
}
