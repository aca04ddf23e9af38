import { expect } from 'chai';
import { WIDGET_LIMITS } from '../../api/channels/widget/limits';
import { costChecks, phasePlan, rateChecks } from '../../bench/ingest';

describe('bench ingest: the workload and its targets', () => {
  for (const seconds of [3, 5, 10, 30]) {
    it(`sends one first contact in ten, spread over every second, at BENCH_SECONDS=${seconds}`, () => {
      for (const rate of [100, 1000]) {
        const plan = phasePlan(rate, seconds);
        const senders = Array.from({ length: plan.total }, (_, seq) => plan.sender(seq));
        const firsts = senders.filter((s) => s.kind === 'first');
        expect(firsts.length).to.equal(plan.total / 10);
        // Each new visitor sends exactly one message.
        expect(new Set(firsts.map((s) => s.index)).size).to.equal(firsts.length);
        expect(Math.max(...firsts.map((s) => s.index))).to.be.below(plan.firsts);
        for (let second = 0; second < seconds; second++) {
          const inSecond = senders.slice(second * rate, (second + 1) * rate);
          expect(inSecond.filter((s) => s.kind === 'first').length, `second ${second}`).to.equal(rate / 10);
        }
      }
    });
  }

  it('keeps every returning visitor under the widget limit per minute', () => {
    const rate = 1000;
    const plan = phasePlan(rate, 60);
    const perVisitor = new Map<number, number>();
    for (let seq = 0; seq < plan.total; seq++) {
      const s = plan.sender(seq);
      if (s.kind === 'returning') perVisitor.set(s.index, (perVisitor.get(s.index) ?? 0) + 1);
    }
    expect(perVisitor.size).to.equal(plan.returning);
    expect(Math.max(...perVisitor.values())).to.be.at.most(WIDGET_LIMITS.message.visitor.limit);
  });

  it('checks each rate against its own target only (one rate run: no 1,000 msg/s figure)', () => {
    const only100 = rateChecks([{ rate: 100, p99: 30 }]);
    expect(only100.map((c) => c.target)).to.deep.equal(['p99 ≤ 50 ms at 100 msg/s']);
    expect(only100[0]).to.include({ value: 30, met: true });
    const only1000 = rateChecks([{ rate: 1000, p99: 300 }]);
    expect(only1000.map((c) => c.target)).to.deep.equal(['p99 ≤ 250 ms at 1,000 msg/s']);
    expect(only1000[0]).to.include({ value: 300, met: false });
    expect(rateChecks([{ rate: 30, p99: 10 }])).to.deep.equal([]);
    const both = rateChecks([
      { rate: 100, p99: 40 },
      { rate: 1000, p99: 200 },
    ]);
    expect(both.map((c) => [c.target, c.value])).to.deep.equal([
      ['p99 ≤ 50 ms at 100 msg/s', 40],
      ['p99 ≤ 250 ms at 1,000 msg/s', 200],
    ]);
  });

  it('checks what is acknowledged as the issue states it: every message at 100 msg/s, at least 500/s at 1,000 msg/s', () => {
    const checks = rateChecks([
      { rate: 100, p99: 40, acknowledgedPerS: 99, notAcknowledged: 1 },
      { rate: 1000, p99: 200, acknowledgedPerS: 480, notAcknowledged: 5200 },
    ]);
    expect(checks.map((c) => [c.target, c.value, c.met])).to.deep.equal([
      ['p99 ≤ 50 ms at 100 msg/s', 40, true],
      ['every message acknowledged at 100 msg/s', 1, false],
      ['p99 ≤ 250 ms at 1,000 msg/s', 200, true],
      ['≥ 500 acknowledged/s at 1,000 msg/s', 480, false],
    ]);
    expect(rateChecks([{ rate: 1000, p99: 200, acknowledgedPerS: 500, notAcknowledged: 5000 }]).every((c) => c.met)).to.equal(true);
  });

  it('checks one message’s cost against the issue: CPU of a warm process’s returning visitor, statements of both kinds; the fresh process’s CPU beside it', () => {
    const checks = costChecks([
      { kind: 'returning', messages: 300, cpuMsPerMessage: 1.6, systemMsPerMessage: 0.3, mainThreadMsPerMessage: 1.2, wallMsPerMessage: 4, statementsPerMessage: 3 },
      { kind: 'first', messages: 300, cpuMsPerMessage: 2.4, systemMsPerMessage: 0.4, mainThreadMsPerMessage: 1.9, wallMsPerMessage: 5, statementsPerMessage: 7 },
      { kind: 'aged', messages: 300, cpuMsPerMessage: 1.4, systemMsPerMessage: 0.2, mainThreadMsPerMessage: 1.3, wallMsPerMessage: 4, statementsPerMessage: 3 },
    ]);
    expect(checks.map((c) => [c.target, c.value, c.met, c.informative ?? false])).to.deep.equal([
      ['api CPU per message (returning visitor, one at a time, fresh process)', 1.6, true, true],
      ['of which in the kernel (returning visitor, fresh)', 0.3, true, true],
      ['of which on the main thread (returning visitor, fresh)', 1.2, true, true],
      ['round trip one at a time, POST to answer (returning visitor)', 4, true, true],
      ['statements per message ≤ 4 (returning visitor)', 3, true, false],
      ['api CPU per message (first contact, one at a time, fresh process)', 2.4, true, true],
      ['statements per message ≤ 6 (first contact)', 7, false, false],
      ['api CPU per message ≤ 1.5 ms (returning visitor, one at a time, warm: after the phases)', 1.4, true, false],
      ['of which on the main thread (after the phases)', 1.3, true, true],
    ]);
    const slow = costChecks([{ kind: 'aged', messages: 300, cpuMsPerMessage: 1.6, systemMsPerMessage: 0.2, mainThreadMsPerMessage: 1.5, wallMsPerMessage: 4, statementsPerMessage: 3 }]);
    expect(slow[0].met).to.equal(false);
  });
});
