import { expect } from 'chai';
import { aggregateChecks, aggregateRows, checkLine, spread, spreadTable } from '../../bench/lib/runs';
import type { Row, ScenarioResult } from '../../bench/lib/scenario';

const row = (name: string, rps: number, p99: number, baseline?: string): Row => ({ name, baseline, rps, p50: p99 / 2, p95: p99, p99, requests: rps, errors: 0, seconds: 1 });
const result = (rows: Row[], checks: ScenarioResult['checks'] = []): ScenarioResult => ({ scenario: 's', target: 't', ratio: 0, met: true, rows, checks });

describe('bench runs: median and spread over several runs', () => {
  it('gives the median and min–max of the runs', () => {
    expect(spread([30, 10, 20])).to.include({ median: 20, min: 10, max: 30 });
    expect(spread([4, 1, 3, 2])).to.include({ median: 2.5, min: 1, max: 4 });
    expect(spread([5, NaN])).to.include({ median: 5, min: 5, max: 5 });
  });

  it("takes each run's ratio against the baseline of that same run", () => {
    const runs = [
      result([row('bare', 100, 5), row('api', 50, 9, 'bare')]),
      result([row('bare', 200, 5), row('api', 180, 9, 'bare')]),
      result([row('bare', 150, 5), row('api', 60, 9, 'bare')]),
    ];
    const api = aggregateRows(runs).find((r) => r.name === 'api');
    // Per run 50%, 90%, 40%: median 50%. The quotient of the medians (60 / 150 = 40%) would mix runs.
    expect(api?.ratio).to.include({ median: 0.5, min: 0.4, max: 0.9 });
    expect(api?.rps).to.include({ median: 60, min: 50, max: 180 });
    expect(spreadTable(aggregateRows(runs))).to.match(/api\s+60 \(50–180\).*50% \(40–90%\) of bare/);
  });

  it('counts in how many runs a target was met and calls the majority', () => {
    const runs = [1, 2, 3].map((i) =>
      result([], [
        { target: 'p99 ≤ 15 ms', value: i * 7, unit: 'ms', met: i * 7 <= 15 },
        { target: 'ratio', value: 40, unit: '%', met: true, informative: true },
      ]),
    );
    const [p99, ratio] = aggregateChecks(runs);
    expect(p99).to.include({ metRuns: 2, runs: 3, met: true });
    expect(p99.value.median).to.equal(14);
    expect(checkLine('inbox-list', p99)).to.equal('inbox-list: p99 ≤ 15 ms → median 14.00 (7.00–21.00) ms (met in 2/3 runs)');
    expect(checkLine('counters', ratio)).to.equal('counters: ratio → median 40 % (informative, 3 runs)');
  });
});
