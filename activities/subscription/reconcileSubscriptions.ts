import type { Knex } from 'knex';
import type { Logger } from '../../api/logger';
import { Subscription } from '../../api/models/Subscription';
import type { TemporalGateway } from '../../api/temporal/client';

const PAGE = 200;
const PARALLEL = 10;

/**
 * Starts the lifecycle of every active subscription that has none running (the start is a no-op for the
 * others), so a subscription whose start failed after its signup committed is still picked up; and of every
 * subscription with a paid invoice not applied yet.
 * Returns how many lifecycles were confirmed; a failing one is logged and left for the next run.
 */
export async function reconcileSubscriptions(deps: { knex: Knex; temporal: TemporalGateway; logger: Logger }): Promise<number> {
  let confirmed = 0;
  let afterId = 0;
  for (;;) {
    const page = await Subscription.query(deps.knex)
      .select('id', 'workspaceId', 'expiresAt')
      // An ended plan paid again whose wake-up was lost is picked up too: its lifecycle applies the payment.
      .where((q) => {
        void q.where('status', 'active').orWhereExists(
          deps.knex.select(1).from('invoices').whereRaw('invoices.subscription_id = subscriptions.id').where('invoices.status', 'paid').whereNull('invoices.appliedAt'),
        );
      })
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(PAGE);
    for (let i = 0; i < page.length; i += PARALLEL) {
      const results = await Promise.allSettled(
        page.slice(i, i + PARALLEL).map((s) =>
          deps.temporal.startSubscriptionLifecycle({ subscriptionId: s.id, workspaceId: s.workspaceId, expiresAt: s.expiresAt.toISOString() }),
        ),
      );
      results.forEach((r, j) => {
        if (r.status === 'fulfilled') confirmed += 1;
        else deps.logger.error({ err: r.reason, subscriptionId: page[i + j]!.id }, 'could not start subscription lifecycle');
      });
    }
    if (page.length < PAGE) return confirmed;
    afterId = page[page.length - 1]!.id;
  }
}
