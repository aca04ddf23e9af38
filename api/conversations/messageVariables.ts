/**
 * The variables a message written ahead may carry — a scheduled message (docs/scheduled-messages.md
 * "Variables") and the satisfaction question's template (docs/csat.md) —, filled when it goes out: the
 * contact's name, its first word and the protocol of the call the message goes into. Pure: the schedule
 * form's preview, the send activity and the CSAT request share it.
 */

export const SCHEDULE_VARIABLES = ['nome', 'primeiro_nome', 'protocolo'] as const;
export type ScheduleVariable = (typeof SCHEDULE_VARIABLES)[number];
export type ScheduleValues = Record<ScheduleVariable, string>;

/** A contact without a name is addressed like this. */
export const NAMELESS = 'cliente';

const VARIABLE = /\{\{\s*([a-z_]+)\s*\}\}/g;

/** The values for a contact and a call; an empty name becomes NAMELESS. */
export function scheduleValues(name: string | null | undefined, protocol: number | string | null | undefined): ScheduleValues {
  const full = (name ?? '').trim().replace(/\s+/g, ' ') || NAMELESS;
  return { nome: full, primeiro_nome: full.split(' ')[0]!, protocolo: protocol === null || protocol === undefined ? '' : String(protocol) };
}

/** Each known `{{variable}}` replaced by its value; anything else in braces stays as written. */
export function fillVariables(text: string, values: ScheduleValues): string {
  return text.replace(VARIABLE, (whole, name: string) => ((SCHEDULE_VARIABLES as readonly string[]).includes(name) ? values[name as ScheduleVariable] : whole));
}

/** The `{{…}}` names of a text that are not ours (the form warns about them). */
export function unknownVariables(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(VARIABLE)) if (!(SCHEDULE_VARIABLES as readonly string[]).includes(m[1]!) && !out.includes(m[1]!)) out.push(m[1]!);
  return out;
}
