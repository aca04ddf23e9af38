import { expect } from 'chai';
import { BUSY_REST_CORES, busyReason, clusterChecks, cpuLine, perCore, type NodePhase } from '../../bench/cluster';
import { cpuBetween, parseStat, withDescendants, type CpuSnapshot } from '../../bench/lib/processCpu';

const snap = (at: number, machineBusyMs: number, perPid: Record<number, number>, groups: Record<string, number[]>): CpuSnapshot => ({
  at,
  machineBusyMs,
  perPid: new Map(Object.entries(perPid).map(([pid, ms]) => [Number(pid), ms])),
  groups,
});

/** A phase of `seconds` whose groups used `cores` each (by name), plus the rest of the machine. */
function phase(nodes: number, acknowledgedPerS: number, p99: number, cores: Record<string, number>, rest = 0, seconds = 10, lost = 0): NodePhase {
  const groups = Object.entries(cores).map(([name, c]) => ({ name, cpuMs: c * seconds * 1000, cores: c }));
  const totalMs = groups.reduce((a, g) => a + g.cpuMs, 0);
  return {
    nodes,
    sent: 1000 * seconds,
    acknowledged: acknowledgedPerS * seconds,
    acknowledgedPerS,
    p99,
    lost,
    loadBefore: 1,
    cpu: { seconds, groups, total: { name: 'total', cpuMs: totalMs, cores: totalMs / 1000 / seconds }, rest: { name: 'rest of the machine', cpuMs: rest * seconds * 1000, cores: rest } },
  };
}

describe('bench cluster: CPU per process, the figure per core and the 1-node / 2-node targets', () => {
  it('reads /proc/<pid>/stat whatever the command name holds', () => {
    // utime 150 and stime 50 ticks (USER_HZ 100): 2 s.
    const line = '4242 (beam.smp) S 4200 4242 4200 0 -1 4194560 100 0 0 0 150 50 0 0 20 0 30 0 100 0 0';
    expect(parseStat(line)).to.deep.equal({ pid: 4242, ppid: 4200, comm: 'beam.smp', cpuMs: 2000 });
    const odd = '77 (a (b) c) R 1 77 77 0 -1 0 0 0 0 0 10 10 0 0 20 0 1 0 1 0 0';
    expect(parseStat(odd)).to.deep.equal({ pid: 77, ppid: 1, comm: 'a (b) c', cpuMs: 200 });
  });

  it("takes a process with everything below it (rabbitmq-server's script and its Erlang VM), nothing beside it", () => {
    const table = [
      { pid: 10, ppid: 1 },
      { pid: 11, ppid: 10 },
      { pid: 12, ppid: 11 },
      { pid: 13, ppid: 11 },
      { pid: 20, ppid: 1 },
      { pid: 21, ppid: 20 },
    ];
    expect(withDescendants(10, table).sort()).to.deep.equal([10, 11, 12, 13]);
    expect(withDescendants(20, table).sort()).to.deep.equal([20, 21]);
    expect(withDescendants(99, table)).to.deep.equal([99]);
  });

  it("counts each group's CPU over the span, a process started during it from zero, and the rest of the machine apart", () => {
    const before = snap(0, 100_000, { 1: 1000, 2: 500, 3: 0 }, { api: [1], pg: [2] });
    // 4 s later: api +2,000 ms, pg +1,000 ms plus a new backend (pid 4, 400 ms), a gone backend (pid 3) lost;
    // the machine was busy 5,000 ms: 1,600 ms of it nobody here.
    const after = snap(4000, 105_000, { 1: 3000, 2: 1500, 4: 400 }, { api: [1], pg: [2, 3, 4] });
    const span = cpuBetween(before, after);
    expect(span.seconds).to.equal(4);
    expect(span.groups).to.deep.equal([
      { name: 'api', cpuMs: 2000, cores: 0.5 },
      { name: 'pg', cpuMs: 1400, cores: 0.35 },
    ]);
    expect(span.total.cpuMs).to.equal(3400);
    expect(span.rest.cpuMs).to.equal(1600);
    expect(span.rest.cores).to.equal(0.4);
  });

  it('gives the topology’s cores and its acknowledged messages per CPU-second, leaving out the load generator', () => {
    const p = phase(2, 400, 120, { 'api-1': 0.6, 'api-2': 0.6, PostgreSQL: 0.4, RabbitMQ: 0.2, haproxy: 0.1, 'worker-1': 0.05, 'worker-2': 0.05, 'load generator': 0.5 });
    const { cores, messagesPerCpuSecond } = perCore(p);
    expect(cores).to.be.closeTo(2, 1e-9);
    // 4,000 messages over 20 CPU-seconds of the topology.
    expect(messagesPerCpuSecond).to.be.closeTo(200, 1e-9);
    expect(cpuLine(p)).to.match(/^2 api nodes, CPU over 10\.0 s .*api-1 0\.60 \(1\.50\).*load generator 0\.50 \(1\.25\); rest of the machine 0\.00$/);
  });

  it('flags a phase during which other work used more than a quarter of a core', () => {
    expect(busyReason(phase(1, 200, 100, { 'api-1': 1 }, BUSY_REST_CORES))).to.equal(undefined);
    expect(busyReason(phase(1, 200, 100, { 'api-1': 1 }, 0.6))).to.equal('other work used 0.60 cores during the 1-node phase (> 0.25)');
  });

  it('checks the ratio of acknowledged rates, the 2-node p99 and nothing lost, as the issue states them', () => {
    const one = phase(1, 200, 900, { 'api-1': 1 });
    const met = clusterChecks(one, phase(2, 350, 240, { 'api-1': 1, 'api-2': 1 }));
    expect(met.slice(0, 3).map((c) => [c.target, Math.round(c.value), c.met])).to.deep.equal([
      ["2 api nodes ≥ 1.7× one node's acknowledged rate (same run)", 175, true],
      ['p99 ≤ 250 ms with 2 api nodes', 240, true],
      ['0 lost (acknowledged but never received), both phases', 0, true],
    ]);
    expect(met.slice(3).every((c) => c.informative)).to.equal(true);
    const missed = clusterChecks(phase(1, 200, 900, { 'api-1': 1 }, 0, 10, 2), phase(2, 330, 260, { 'api-1': 1, 'api-2': 1 }));
    expect(missed.slice(0, 3).map((c) => [Math.round(c.value), c.met])).to.deep.equal([
      [165, false],
      [260, false],
      [2, false],
    ]);
  });
});
