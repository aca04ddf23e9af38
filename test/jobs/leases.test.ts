import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { testDatabase } from '../helpers/db';
import { everyTick, pgJobLeases, LEASE_SHARE } from '../../api/jobs/leases';
import { runPeriodically, useJobGate } from '../../api/jobs/runPeriodically';
import { createLogger } from '../../api/logger';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('periodic jobs in a cluster (CLUSTER_JOBS): each sweep runs once per interval across every process', () => {
  let knex: Knex;
  before(async () => {
    ({ knex } = await testDatabase());
  });
  afterEach(() => useJobGate(everyTick));

  it('lets exactly one of many processes claiming the same tick at once run it', async () => {
    const job = `job-${randomBytes(4).toString('hex')}`;
    const nodes = Array.from({ length: 6 }, (_, i) => pgJobLeases(knex, `node-${i}`));
    const claims = await Promise.all(nodes.map((n) => n.claim(job, 60_000)));
    expect(claims.filter(Boolean)).to.have.length(1);
    // Within the interval nobody runs it again, the winner included.
    expect(await Promise.all(nodes.map((n) => n.claim(job, 60_000)))).to.deep.equal([false, false, false, false, false, false]);
  });

  it('hands the next tick to any process once the interval has passed (a node that died stops nothing)', async () => {
    const job = `job-${randomBytes(4).toString('hex')}`;
    const dead = pgJobLeases(knex, 'dead-node');
    const alive = pgJobLeases(knex, 'alive-node');
    expect(await dead.claim(job, 300)).to.equal(true);
    expect(await alive.claim(job, 300)).to.equal(false);
    await sleep(300 * LEASE_SHARE + 20);
    expect(await alive.claim(job, 300)).to.equal(true);
    const row = await knex('periodic_job_runs').where({ name: job }).first('node');
    expect(row.node).to.equal('alive-node');
  });

  it('two timers of the same job (two processes) run it about once per interval in all, not once each', async () => {
    const job = `job-${randomBytes(4).toString('hex')}`;
    const logger = createLogger('silent', 'test');
    const runs: string[] = [];
    useJobGate(pgJobLeases(knex, 'this-test'));
    const start = (who: string) =>
      runPeriodically(logger, job, 200, async () => {
        runs.push(who);
      });
    const a = start('a');
    await sleep(100);
    const b = start('b');
    await sleep(2000);
    await a.stop();
    await b.stop();
    // 2 s at one run per 200 ms is about 10 runs; each timer on its own would make about 20 together.
    expect(runs.length).to.be.within(7, 12);
  });

  it('without the lease (one process, npm start) every tick runs', async () => {
    const runs: number[] = [];
    const job = runPeriodically(createLogger('silent', 'test'), `job-${randomBytes(4).toString('hex')}`, 100, async () => {
      runs.push(1);
    });
    await sleep(550);
    await job.stop();
    expect(runs.length).to.be.within(4, 6);
  });
});
