import type { Knex } from 'knex';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { Publisher } from './publisher';
import type { PresenceHook } from './broker';
import type { BrokerAdmin } from './rabbitAdmin';
import { runPeriodically, type PeriodicJob } from '../jobs/runPeriodically';

type Deps = { config: Config; knex: Knex; logger: Logger; publisher: Publisher };

/**
 * Presence with an external broker (docs/scaling.md): the broker's live sessions are the truth, so an
 * agent connected through any api node, or through several tabs, counts once. Each run compares the
 * operators the broker has subscribed on their own topic with `workspace_members.is_online` and tells
 * the presence hook (assignment's setOperatorOnline) about each difference: came online, went offline.
 * Run by one process at a time (CLUSTER_JOBS), so a transition is announced once.
 */
export async function syncBrokerPresence(deps: Deps, admin: BrokerAdmin, onPresence: PresenceHook): Promise<{ online: number; offline: number }> {
  const live = await admin.liveOperators();
  const recorded: { workspaceId: number; operatorId: number }[] = await deps.knex('workspace_members').where({ isOnline: true }).select('workspace_id', 'operator_id');
  const known = new Set(recorded.map((r) => `${r.workspaceId}:${r.operatorId}`));
  const tell = async (key: string, online: boolean) => {
    const [workspaceId, operatorId] = key.split(':').map(Number) as [number, number];
    await onPresence(deps, { workspaceId, operatorId }, online).catch((err: unknown) => deps.logger.warn({ err, workspaceId, operatorId }, 'presence update failed'));
  };
  let online = 0;
  let offline = 0;
  for (const key of live) {
    if (known.has(key)) continue;
    await tell(key, true);
    online++;
  }
  for (const key of known) {
    if (live.has(key)) continue;
    await tell(key, false);
    offline++;
  }
  return { online, offline };
}

/**
 * Every `intervalMs` (the broker's statistics come every second: docs/scaling.md). Before its first sync
 * it makes the internal credential a broker user (rabbitAdmin.ts `ensureInternalUser`), retried each tick
 * until the broker answers. A broker that does not answer yet (starting) is logged once a minute.
 */
export function startBrokerPresenceSync(deps: Deps, admin: BrokerAdmin, onPresence: PresenceHook, intervalMs = 2000): PeriodicJob {
  let internalUser = false;
  let lastWarning = 0;
  return runPeriodically(deps.logger, 'broker presence sync', intervalMs, async () => {
    try {
      if (!internalUser) {
        await admin.ensureInternalUser(deps.config.mqttInternalPassword);
        internalUser = true;
      }
      const changed = await syncBrokerPresence(deps, admin, onPresence);
      if (changed.online || changed.offline) deps.logger.debug(changed, 'presence from the broker');
    } catch (err) {
      if (Date.now() - lastWarning < 60_000) return;
      lastWarning = Date.now();
      deps.logger.warn({ err: (err as Error).message }, 'broker management API not answering: presence waits for it');
    }
  });
}
