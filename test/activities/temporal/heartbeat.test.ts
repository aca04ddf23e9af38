import { expect } from 'chai';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { heartbeatWhile } from '../../../activities/temporal/heartbeat';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe('heartbeatWhile: an activity attempt that tells Temporal it is alive while it works', () => {
  it('heartbeats at once and then on its interval while the work runs, and stops when it ends', async () => {
    const env = new MockActivityEnvironment();
    const beats: number[] = [];
    env.on('heartbeat', () => beats.push(Date.now()));
    const started = Date.now();
    const result = await env.run(() => heartbeatWhile(50, async () => (await sleep(400), 'feito')));
    expect(result).to.equal('feito');
    expect(beats[0]! - started, 'the first one at once').to.be.below(40);
    // 400 ms at one per 50 ms, on a loaded machine: at least a few, never a silent stretch of the whole run.
    expect(beats.length).to.be.at.least(4);
    const count = beats.length;
    await sleep(200);
    expect(beats.length, 'none after the work ended').to.equal(count);
  });

  it('stops heartbeating when the work fails, and passes the failure on', async () => {
    // The failure is the point here: the SDK's own log of it stays quiet.
    const env = new MockActivityEnvironment(undefined, { logger: new DefaultLogger('ERROR') });
    let beats = 0;
    env.on('heartbeat', () => beats++);
    const failure = await env.run(() => heartbeatWhile(20, async () => (await sleep(100), Promise.reject(new Error('falhou'))))).catch((err: Error) => err);
    expect((failure as Error).message).to.equal('falhou');
    const count = beats;
    await sleep(100);
    expect(beats).to.equal(count);
  });

  it('outside an activity (a test or the bench calling the function) it only runs the work', async () => {
    expect(await heartbeatWhile(10, async () => 42)).to.equal(42);
  });
});
