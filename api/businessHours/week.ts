import type { WeekDay } from '../models/BusinessHours';

/**
 * The week and slot constants without the model's runtime (objection), so the schema and schedule helpers
 * can be imported by the UI bundle. Same values as api/models/BusinessHours.ts.
 */
export const WEEK_DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const satisfies readonly WeekDay[];
export const SLOTS_PER_DAY = 96;
