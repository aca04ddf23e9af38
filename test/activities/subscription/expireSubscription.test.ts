import { expect } from 'chai';
import type { Knex } from 'knex';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createActivities } from '../../../activities';
import type { ExpireSubscriptionResult } from '../../../activities/subscription/expireSubscription';
import { createLogger } from '../../../api/logger';
import { testDatabase } from '../../helpers/db';
import { insertSubscription, readSubscription, RecordingPublisher } from '../../workflows/subscription/rows';

const DAY = 24 * 60 * 60 * 1000;

describe('expireSubscription activity (real database)', () => {
  let knex: Knex;
  let publisher: RecordingPublisher;
  let activities: ReturnType<typeof createActivities>;

  before(async () => {
    ({ knex } = await testDatabase());
  });
  beforeEach(() => {
    publisher = new RecordingPublisher();
    activities = createActivities({ knex, publisher, logger: createLogger('silent') });
  });

  /** Runs the activity as Temporal would schedule it at `now` (the clock its expiry check uses). */
  const expireAt = (now: number, subscriptionId: number): Promise<ExpireSubscriptionResult> =>
    new MockActivityEnvironment({ currentAttemptScheduledTimestampMs: now, scheduledTimestampMs: now }).run(activities.expireSubscription, { subscriptionId });

  it('expires a due subscription once; a retry changes nothing and reports the same state', async () => {
    const expiresAt = new Date(Date.now() - DAY);
    const sub = await insertSubscription(knex, expiresAt);

    const first = await expireAt(Date.now(), sub.id);
    const afterFirst = await readSubscription(knex, sub.id);
    const second = await expireAt(Date.now(), sub.id);
    const afterSecond = await readSubscription(knex, sub.id);

    expect(first).to.deep.equal({ status: 'expired', expiresAt: expiresAt.toISOString() });
    expect(second).to.deep.equal(first);
    expect(afterFirst.status).to.equal('expired');
    expect(afterSecond.updatedAt.getTime()).to.equal(afterFirst.updatedAt.getTime());
    expect(publisher.events[0]).to.deep.equal({ topic: `ws/${sub.workspaceId}/all`, event: 'subscription.expired', data: { subscriptionId: sub.id } });
  });

  it('does not expire a subscription renewed to a future expiresAt and hands back that expiry', async () => {
    const renewedTo = new Date(Date.now() + 30 * DAY);
    const sub = await insertSubscription(knex, renewedTo);

    const result = await expireAt(Date.now(), sub.id);

    expect(result).to.deep.equal({ status: 'active', expiresAt: renewedTo.toISOString() });
    expect((await readSubscription(knex, sub.id)).status).to.equal('active');
    expect(publisher.events).to.deep.equal([]);
  });

  it('leaves a canceled subscription canceled', async () => {
    const sub = await insertSubscription(knex, new Date(Date.now() - DAY), 'canceled');
    expect((await expireAt(Date.now(), sub.id)).status).to.equal('canceled');
    expect((await readSubscription(knex, sub.id)).status).to.equal('canceled');
    expect(publisher.events).to.deep.equal([]);
  });

  it('reports a subscription that no longer exists as missing', async () => {
    expect(await expireAt(Date.now(), 2_000_000_000)).to.deep.equal({ status: 'missing', expiresAt: null });
  });
});
