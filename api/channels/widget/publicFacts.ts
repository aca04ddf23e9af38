import type { Knex } from 'knex';
import { DEFAULT_TIME_ZONE, isWithinBusinessHours } from '../../businessHours/schedule';
import type { WeekSchedule } from '../../models/BusinessHours';
import { addDays, localToday } from '../../reports/filters';
import { emptyHistogram, mergeInto, quantile } from '../../reports/histogram';

/** The widget's answer-time line covers this many local days, today included. */
export const RESPONSE_TIME_DAYS = 7;
/** How long a widget's computed figures are reused (every page view of every site asks for them). */
const CACHE_MS = 60_000;

/**
 * The median TME (first response, docs/reports.md) of the widget's channel over the last 7 local days, in
 * seconds, merged from the daily report aggregates' histograms (report_daily by channel: a few rows, never
 * a message); null when no call of the channel was answered in that period. The median, not the mean: one
 * night-long wait would make the mean promise an hour to every visitor.
 */
export async function channelMedianTme(db: Knex, workspaceId: number, channelId: number, timeZone: string, now = new Date()): Promise<number | null> {
  const to = localToday(timeZone, now);
  const from = addDays(to, -(RESPONSE_TIME_DAYS - 1));
  const rows: { tmeHist: number[] | null }[] = await db('report_daily')
    .where({ workspaceId, channelId })
    .whereBetween('day', [from, to])
    .where('tme_count', '>', 0)
    .select('tme_hist');
  const hist = emptyHistogram();
  for (const r of rows) mergeInto(hist, r.tmeHist);
  return quantile(hist, 0.5);
}

/** Whole minutes a visitor is told ('Respondemos em cerca de X minutos'): at least 1, rounded up. */
export function responseMinutes(seconds: number | null): number | null {
  return seconds === null ? null : Math.max(1, Math.ceil(seconds / 60));
}

export interface WidgetLiveFacts {
  /** Median first-response minutes of the last 7 days; null when unknown or switched off. */
  responseMinutes: number | null;
  /** True when the widget names a schedule and it says closed now. */
  outOfHours: boolean;
}

const cache = new Map<number, { at: number; key: string; facts: WidgetLiveFacts }>();

/**
 * What /v1/widget/config tells the visitor besides the settings: the answer time and whether the team is
 * out of hours now (the schedule the widget names in Configurações › Horário comercial, in the workspace's
 * time zone). Cached a minute per channel and settings, so a busy site costs one query a minute.
 */
export async function widgetLiveFacts(
  db: Knex,
  channel: { id: number; workspaceId: number },
  settings: { showResponseTime: boolean; businessHoursId: number | null },
  now = new Date(),
): Promise<WidgetLiveFacts> {
  const key = `${settings.showResponseTime}:${settings.businessHoursId}`;
  const hit = cache.get(channel.id);
  if (hit && hit.key === key && now.getTime() - hit.at < CACHE_MS) return hit.facts;
  const ws = await db('workspaces').where({ id: channel.workspaceId }).first('time_zone');
  const timeZone: string = ws?.timeZone || DEFAULT_TIME_ZONE;
  let outOfHours = false;
  if (settings.businessHoursId) {
    const row = await db('business_hours').where({ workspaceId: channel.workspaceId, id: settings.businessHoursId }).first('days');
    // A schedule deleted since the widget was saved: no schedule, never 'closed'.
    if (row) outOfHours = !isWithinBusinessHours(row.days as WeekSchedule, now, timeZone);
  }
  const minutes = settings.showResponseTime ? responseMinutes(await channelMedianTme(db, channel.workspaceId, channel.id, timeZone, now)) : null;
  const facts = { responseMinutes: minutes, outOfHours };
  if (cache.size > 10_000) cache.clear();
  cache.set(channel.id, { at: now.getTime(), key, facts });
  return facts;
}

/** Forgets a channel's cached figures (its settings were saved on this node). */
export function forgetWidgetLiveFacts(channelId: number): void {
  cache.delete(channelId);
}
