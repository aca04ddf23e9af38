import type { Knex } from 'knex';
import type { WeekSchedule } from '../models/BusinessHours';
import { DEFAULT_TIME_ZONE, isWithinBusinessHours } from '../businessHours/schedule';
import { activeBotsForChannel, type BotRecord, type BotUserType } from './queries';

type Db = Knex | Knex.Transaction;

/** What the rules look at for one new call. */
export interface SelectionFacts {
  channelId: number;
  now: Date;
  timeZone: string;
  /** Business-hours schedules by id (the ones the candidates name; a missing id is a deleted schedule). */
  schedules: Map<number, WeekSchedule>;
  registered: boolean;
}

/**
 * Registered contact (docs/bots.md "Selection"): one with an e-mail address, or whose name was typed into
 * a bot input (customers.name_given_at). A name a channel made up (the widget's 'Visitante ABCD') or
 * took from the provider profile does not count.
 */
export function isRegistered(customer: { email: string | null; nameGivenAt: Date | null }): boolean {
  return Boolean(customer.email?.trim()) || customer.nameGivenAt !== null;
}

export function userTypeMatches(userType: BotUserType, registered: boolean): boolean {
  if (userType === 'registered') return registered;
  if (userType === 'unregistered') return !registered;
  return true;
}

/** Inside one of the bot's schedules (workspace time zone); a bot without schedules runs at any time. A deleted schedule is closed. */
export function insideBusinessHours(bot: Pick<BotRecord, 'businessHours'>, facts: Pick<SelectionFacts, 'now' | 'timeZone' | 'schedules'>): boolean {
  if (!bot.businessHours.length) return true;
  return bot.businessHours.some((id) => {
    const schedule = facts.schedules.get(id);
    return schedule !== undefined && isWithinBusinessHours(schedule, facts.now, facts.timeZone);
  });
}

/**
 * SPEC §5 bot rules, pure: among active bots listing the channel, inside their hours and for this kind of
 * contact, the highest priority wins; equal priorities go to the oldest bot (lowest id).
 */
export function pickBot<B extends BotRecord>(candidates: B[], facts: SelectionFacts): B | undefined {
  const eligible = candidates.filter(
    (b) => b.isActive && b.channels.includes(facts.channelId) && insideBusinessHours(b, facts) && userTypeMatches(b.userType, facts.registered),
  );
  eligible.sort((a, b) => b.priority - a.priority || a.id - b.id);
  return eligible[0];
}

/** The bot for a call that just opened on `channelId`, or undefined: reads candidates, schedules, time zone and contact. */
export async function selectBot(db: Db, input: { workspaceId: number; channelId: number; customerId: number; now?: Date }): Promise<BotRecord | undefined> {
  const candidates = await activeBotsForChannel(db, input.workspaceId, input.channelId);
  if (!candidates.length) return undefined;
  const scheduleIds = [...new Set(candidates.flatMap((b) => b.businessHours))];
  // One after another: this runs inside the inbound transaction (one connection).
  const rows = scheduleIds.length ? await db('business_hours').where({ workspaceId: input.workspaceId }).whereIn('id', scheduleIds).select('id', 'days') : [];
  const workspace = await db('workspaces').where({ id: input.workspaceId }).first('time_zone');
  const customer = await db('customers').where({ workspaceId: input.workspaceId, id: input.customerId }).first('email', 'name_given_at');
  const schedules = new Map<number, WeekSchedule>((rows as { id: number; days: WeekSchedule }[]).map((r) => [r.id, r.days]));
  return pickBot(candidates, {
    channelId: input.channelId,
    now: input.now ?? new Date(),
    timeZone: workspace?.timeZone || DEFAULT_TIME_ZONE,
    schedules,
    registered: customer ? isRegistered({ email: customer.email ?? null, nameGivenAt: customer.nameGivenAt ?? null }) : false,
  });
}
