import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { hashPassword } from '../../../api/auth/passwords';
import { loadConfig } from '../../../api/config';
import { bindModels } from '../../../api/db/knex';
import { createLogger } from '../../../api/logger';
import { createStorage } from '../../../api/storage/storage';
import { activateBot, seedBot } from './bot';
import { CONVERSATIONS } from './conversations';
import { seedHistory } from './history';
import { PAST_DAYS, pastMonths, renumberProtocols, writePastMonths } from './pastMonths';
import { rebuildReports } from '../../../api/reports/rebuild';
import { seedIntegrations } from './integrations';
import { seedSegments } from './segments';
import { seedSchedules } from './schedules';
import { seedTeamChat } from './teamChat';
import { seedFunnels } from './funnels';
import { enableDemoCsat, writePastRatings } from './csat';
import { DEMO_LOGIN, publishTeam, removeInterruptedSeed, seedTeam } from './team';
// Nobody is connected while the seed runs: the events the commands publish go nowhere.
import { quietPublisher } from '../instance';

export { DEMO_LOGIN } from './team';

export interface SeedOptions {
  trialDays: number;
  publicUrl: string;
  /** Where the app keeps its files: the history's attachment goes under `files/` there. Default: DATA_DIR, as the api reads it. */
  dataDir?: string;
  /** The moment the history is written back from (tests pin it); now by default. */
  now?: Date;
}

/**
 * The demo workspace of `npm start` (docs/demo.md), created on the first start only: returns false, and
 * writes nothing, when the demo owner exists. Each area has its module (team, bot, history, saved filters,
 * integrations; channels and reports add theirs here) and writes through the app's own commands, each step
 * committed like the request it stands for. The team gets its real addresses last, so a start that dies
 * half-way leaves no demo owner: the next start removes the leftovers and writes the demo again.
 */
export async function seedDemo(knex: Knex, options: SeedOptions): Promise<boolean> {
  const existing = await knex('operators').whereRaw('lower(email) = ?', [DEMO_LOGIN.email]).first('id');
  if (existing) return false;
  // The seed runs before the api, in npm start's own process: the models it goes through use this pool.
  bindModels(knex);
  await removeInterruptedSeed(knex);
  const now = options.now ?? new Date();
  const dataDir = options.dataDir ?? loadConfig().dataDir;
  const passwordHash = await hashPassword(DEMO_LOGIN.password);
  // The commands publish signed file links; the secrets that sign them here are never used again.
  const config = loadConfig({ DATA_DIR: dataDir, PUBLIC_URL: options.publicUrl, JWT_SECRET: randomBytes(32).toString('hex'), MQTT_INTERNAL_PASSWORD: randomBytes(16).toString('hex') });
  const deps = { knex, logger: createLogger('silent'), publisher: quietPublisher, config };
  try {
    const team = await knex.transaction((trx) => seedTeam(trx, { trialDays: options.trialDays, passwordHash }));
    // The bot was written before the oldest history that goes through it.
    const bot = await knex.transaction((trx) => seedBot(trx, team, new Date(now.getTime() - (PAST_DAYS + 1) * 86_400_000)));
    // Three months of older, resolved calls (pastMonths.ts), then the story the inbox shows (conversations.ts)
    // through the commands, then every call numbered in the order it opened.
    await knex.transaction((trx) => writePastMonths(trx, team, bot, pastMonths(now), now));
    await seedHistory(deps, team, bot, createStorage({ dataDir }), CONVERSATIONS, now);
    await knex.transaction((trx) => renumberProtocols(trx, team.workspaceId));
    // The history's moments are written back after each command: its report figures are recomputed from them.
    await rebuildReports(knex, team.workspaceId);
    // The kanban's funnel, and conversations moved into its stages by the stage command (docs/kanban.md).
    await seedFunnels(deps, team);
    // The satisfaction survey's questions and ratings of the last two months (docs/csat.md).
    await knex.transaction((trx) => writePastRatings(trx, team, now));
    await knex.transaction(async (trx) => {
      await seedSegments(trx, team);
      await seedIntegrations(trx, team);
      await seedSchedules(trx, team, deps, now);
      await seedTeamChat(trx, team, deps, now);
      await enableDemoCsat(trx, team);
      await activateBot(trx, bot);
      await publishTeam(trx, team);
    });
  } catch (err) {
    await removeInterruptedSeed(knex).catch(() => undefined);
    throw err;
  }
  return true;
}
