import { z } from 'zod';
import { SLOTS_PER_DAY, WEEK_DAYS } from './week';

/** Shared by the API and the business-hours form in the UI. */
const slot = z
  .number({ error: 'Horário inválido.' })
  .int('Horário inválido.')
  .min(0, 'Horário inválido.')
  .max(SLOTS_PER_DAY, 'Horário inválido.');

export const HourRangeSchema = z.strictObject({ startHourIndex: slot, endHourIndex: slot });

export const DaySchema = z
  .strictObject({
    active: z.boolean({ error: 'Informe se o dia está ativo.' }),
    hours: z.array(HourRangeSchema).max(SLOTS_PER_DAY, 'Horários demais.'),
  })
  .superRefine((day, ctx) => {
    const sorted = [...day.hours].sort((a, b) => a.startHourIndex - b.startHourIndex);
    for (const [i, h] of sorted.entries()) {
      if (h.startHourIndex >= h.endHourIndex) {
        ctx.addIssue({ code: 'custom', message: 'O início deve ser antes do fim.', path: ['hours'] });
        return;
      }
      if (i > 0 && h.startHourIndex < sorted[i - 1].endHourIndex) {
        ctx.addIssue({ code: 'custom', message: 'Os horários do dia não podem se sobrepor.', path: ['hours'] });
        return;
      }
    }
  });

export const DaysSchema = z.strictObject(Object.fromEntries(WEEK_DAYS.map((d) => [d, DaySchema])) as Record<(typeof WEEK_DAYS)[number], typeof DaySchema>);

const name = z
  .string({ error: 'O nome é obrigatório.' })
  .trim()
  .min(1, 'O nome é obrigatório.')
  .max(120, 'O nome deve ter no máximo 120 caracteres.');

export const BusinessHoursCreateSchema = z.strictObject({ name, days: DaysSchema.optional() });
export type BusinessHoursCreateReq = z.infer<typeof BusinessHoursCreateSchema>;

export const BusinessHoursUpdateSchema = z.strictObject({ name: name.optional(), days: DaysSchema.optional(), sort: z.number().int().optional() });
export type BusinessHoursUpdateReq = z.infer<typeof BusinessHoursUpdateSchema>;
