import type { Modifiers } from 'objection';
import { BaseModel } from './BaseModel';
import { bySort } from './modifiers';

export const WEEK_DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type WeekDay = (typeof WEEK_DAYS)[number];
/** 15-minute slots: index 0 is 00:00, 96 is the end of the day (SPEC §9). */
export const SLOTS_PER_DAY = 96;

export interface HourRange {
  startHourIndex: number;
  endHourIndex: number;
}
export interface DaySchedule {
  active: boolean;
  hours: HourRange[];
}
export type WeekSchedule = Record<WeekDay, DaySchedule>;

export class BusinessHours extends BaseModel {
  static override tableName = 'business_hours';
  static override jsonAttributes = ['days'];
  id!: number;
  workspaceId!: number;
  name!: string;
  days!: WeekSchedule;
  sort!: number;
  createdAt!: Date;
  updatedAt!: Date;

  static override modifiers: Modifiers = {
    sorted: bySort('business_hours'),
  };
}
