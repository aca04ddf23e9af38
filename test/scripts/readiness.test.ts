import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { healthReady, pendingParts, waitForHealth } from '../../scripts/lib/readiness';

const ALL_OK = { data: { db: 'ok', temporal: 'ok', mqtt: 'ok', worker: 'ok' } };

describe('npm start readiness: the URLs are printed only when /api/health is ok for every part, the worker included', () => {
  it('is ready on a 200 naming every part ok', () => {
    expect(healthReady({ status: 200, body: ALL_OK })).to.equal(true);
  });

  it('is not ready while no worker polls the queue (503, worker failing), nor on an answer that does not name the worker', () => {
    const noWorker = { data: { ...ALL_OK.data, worker: 'fail' } };
    expect(healthReady({ status: 503, body: noWorker })).to.equal(false);
    expect(pendingParts({ status: 503, body: noWorker })).to.deep.equal(['worker']);
    // An api without the worker check (or another server on the port) says 200 without it.
    expect(healthReady({ status: 200, body: { data: { db: 'ok', temporal: 'ok', mqtt: 'ok' } } })).to.equal(false);
    expect(healthReady({ status: 200, body: '<html>' })).to.equal(false);
    expect(healthReady(undefined)).to.equal(false);
    expect(pendingParts(undefined)).to.deep.equal(['db', 'temporal', 'mqtt', 'worker']);
  });

  describe('waitForHealth against a real HTTP server', () => {
    let server: http.Server;
    let url: string;
    let answers: { status: number; body: unknown }[];
    let asked: number;
    beforeEach(async () => {
      asked = 0;
      server = http.createServer((req, res) => {
        const a = answers[Math.min(asked++, answers.length - 1)];
        res.writeHead(a.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(a.body));
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterEach(() => new Promise((r) => server.close(r)));

    it('waits through the answers without a worker and returns on the first that is ready', async () => {
      const noWorker = { status: 503, body: { data: { ...ALL_OK.data, worker: 'fail' } } };
      answers = [noWorker, noWorker, noWorker, { status: 200, body: ALL_OK }];
      await waitForHealth(url, { timeoutMs: 10_000, intervalMs: 10 });
      expect(asked).to.equal(4);
    });

    it('gives up after the timeout naming the part still pending', async () => {
      answers = [{ status: 503, body: { data: { ...ALL_OK.data, worker: 'fail' } } }];
      let error: Error | undefined;
      await waitForHealth(url, { timeoutMs: 200, intervalMs: 10 }).catch((e: Error) => (error = e));
      expect(error?.message).to.include('aguardando: worker');
    });

    it('stops at once when a process it waits for has ended', async () => {
      answers = [{ status: 503, body: { data: { ...ALL_OK.data, worker: 'fail' } } }];
      let error: Error | undefined;
      await waitForHealth(url, { timeoutMs: 10_000, intervalMs: 10, failed: () => true }).catch((e: Error) => (error = e));
      expect(error?.message).to.include('um processo terminou');
      expect(asked).to.equal(1);
    });
  });
});
