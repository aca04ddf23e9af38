import os from 'node:os';
import { readFileSync } from 'node:fs';
import type { Check, Row, ScenarioResult } from './scenario';
import { sleep } from './scenario';

/**
 * Several runs of one scenario reduced to what is reported: for every figure the median and the spread
 * (min–max) over the runs, each run's ratio taken against the baseline measured in that same run, and
 * each target met or missed per run. Also the machine's state around each run (load average, how busy
 * the cores were while the bench itself was idle), so a disturbed run is visible.
 */
export interface Spread {
  median: number;
  min: number;
  max: number;
  values: number[];
}

export function spread(values: number[]): Spread {
  const finite = values.filter((v) => Number.isFinite(v));
  if (!finite.length) return { median: NaN, min: NaN, max: NaN, values };
  const sorted = [...finite].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1], values };
}

export interface AggregatedRow {
  name: string;
  baseline?: string;
  runs: number;
  rps: Spread;
  p50: Spread;
  p95: Spread;
  p99: Spread;
  errors: Spread;
  /** rps ÷ the baseline row's rps of the same run, per run. */
  ratio?: Spread;
}

export interface AggregatedCheck {
  target: string;
  unit: string;
  value: Spread;
  metRuns: number;
  runs: number;
  /** Met in most runs (the median run's verdict). */
  met: boolean;
  informative?: boolean;
}

export function checksOf(result: ScenarioResult): Check[] {
  return result.checks ?? [{ target: result.target, value: result.ratio * 100, unit: '%', met: result.met }];
}

export function aggregateRows(results: ScenarioResult[], baseline?: (row: Row) => string | undefined): AggregatedRow[] {
  const names: string[] = [];
  for (const r of results) for (const row of r.rows) if (!names.includes(row.name)) names.push(row.name);
  return names.map((name) => {
    const perRun = results.map((r) => ({ row: r.rows.find((x) => x.name === name), rows: r.rows }));
    const present = perRun.filter((p): p is { row: Row; rows: Row[] } => !!p.row);
    const first = present[0].row;
    const baseName = first.baseline ?? baseline?.(first);
    const ratios = baseName
      ? present.map(({ row, rows }) => {
          const base = rows.find((b) => b.name === baseName);
          return base ? row.rps / base.rps : NaN;
        })
      : undefined;
    return {
      name,
      baseline: baseName,
      runs: present.length,
      rps: spread(present.map((p) => p.row.rps)),
      p50: spread(present.map((p) => p.row.p50)),
      p95: spread(present.map((p) => p.row.p95)),
      p99: spread(present.map((p) => p.row.p99)),
      errors: spread(present.map((p) => p.row.errors)),
      ratio: ratios && ratios.some(Number.isFinite) ? spread(ratios) : undefined,
    };
  });
}

export function aggregateChecks(results: ScenarioResult[]): AggregatedCheck[] {
  const targets: string[] = [];
  for (const r of results) for (const c of checksOf(r)) if (!targets.includes(c.target)) targets.push(c.target);
  return targets.map((target) => {
    const cs = results.map((r) => checksOf(r).find((c) => c.target === target)).filter((c): c is Check => !!c);
    const metRuns = cs.filter((c) => c.met).length;
    return { target, unit: cs[0].unit, value: spread(cs.map((c) => c.value)), metRuns, runs: cs.length, met: metRuns * 2 > cs.length, informative: cs[0].informative };
  });
}

const fmt = (n: number, digits: number) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

/** "12.3" for one run, "12.3 (11.0–15.2)" for several; `unit` follows each figure ("50% (40–90%)"). */
export function showSpread(s: Spread, digits = 1, unit = ''): string {
  if (s.values.length <= 1 || s.min === s.max) return `${fmt(s.median, digits)}${unit}`;
  return `${fmt(s.median, digits)}${unit} (${fmt(s.min, digits)}–${fmt(s.max, digits)}${unit})`;
}

/** The scenario table over its runs: medians, with min–max in parentheses when there were several runs. */
export function spreadTable(rows: AggregatedRow[]): string {
  const cells = rows.map((r) => [
    r.name,
    showSpread(r.rps, 0),
    showSpread(r.p50, 2),
    showSpread(r.p95, 2),
    showSpread(r.p99, 2),
    showSpread(r.errors, 0),
    r.ratio ? `${showSpread({ ...r.ratio, median: r.ratio.median * 100, min: r.ratio.min * 100, max: r.ratio.max * 100 }, 0, '%')} of ${r.baseline}` : '',
  ]);
  const head = ['scenario', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'errors', 'ratio'];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => c.map((v, i) => (i === 0 ? v.padEnd(widths[i]) : i === c.length - 1 ? ` ${v}` : v.padStart(widths[i]))).join('  ').trimEnd();
  return [line(head), ...cells.map(line)].join('\n');
}

export function checkLine(scenario: string, c: AggregatedCheck): string {
  const digits = c.unit === '%' ? 0 : 2;
  const value = c.runs > 1 ? `median ${showSpread(c.value, digits)}` : showSpread(c.value, digits);
  const verdict = c.informative ? (c.runs > 1 ? `informative, ${c.runs} runs` : 'informative') : c.runs > 1 ? `met in ${c.metRuns}/${c.runs} runs` : c.met ? 'met' : 'missed';
  return `${scenario}: ${c.target} → ${value} ${c.unit} (${verdict})`;
}

/** Each core's busy and total jiffies from /proc/stat; empty where there is none. */
export function coreTimes(): { busy: number; total: number }[] {
  try {
    return readFileSync('/proc/stat', 'utf8')
      .split('\n')
      .filter((l) => /^cpu\d+ /.test(l))
      .map((l) => {
        const [user, nice, system, idle, iowait, irq, softirq, steal] = l.trim().split(/\s+/).slice(1).map(Number);
        const busy = user + nice + system + irq + softirq + steal;
        return { busy, total: busy + idle + iowait };
      });
  } catch {
    return [];
  }
}

/** How busy each core was over `ms` while this process waits: other processes' work. */
export async function idleBusy(ms = 1000): Promise<number[] | undefined> {
  const before = coreTimes();
  await sleep(ms);
  const after = coreTimes();
  if (!before.length || !after.length) return undefined;
  return after.map((a, i) => (a.total > before[i].total ? (a.busy - before[i].busy) / (a.total - before[i].total) : 0));
}

export interface MachineState {
  /** os.loadavg() before the run (after settling) and after it. */
  loadBefore: number[];
  loadAfter?: number[];
  /** Share of each core busy during 1 s of bench idleness right before the run. */
  idleBusy?: number[];
  /** Seconds waited for the 1-minute load to fall to the threshold (our own previous run counts in it). */
  settledSeconds: number;
  noisy: boolean;
  reason?: string;
}

export const CORES = os.cpus().length;
/** 1-minute load per core above which a run is flagged (BENCH_NOISY_LOAD, default 0.5). */
export const NOISY_LOAD = Number(process.env.BENCH_NOISY_LOAD ?? 0.5);
/** Longest wait for the load to settle before a run (BENCH_SETTLE_SECONDS, default 180; 0 = no wait). */
const SETTLE_SECONDS = Number(process.env.BENCH_SETTLE_SECONDS ?? 180);
/** Cores busier than this while the bench is idle mean someone else is working. */
const NOISY_IDLE_BUSY = 0.25;

/**
 * Waits (bounded) until the 1-minute load average per core is at or below NOISY_LOAD — the previous run
 * of the bench itself raises it for a minute or so — then samples the cores for 1 s while idle. A
 * scenario whose figures do not depend on time (`timed` false: sizes) neither waits nor is flagged.
 */
export async function before(timed = true): Promise<MachineState> {
  const started = Date.now();
  if (!timed) return { loadBefore: os.loadavg(), settledSeconds: 0, noisy: false };
  while (os.loadavg()[0] / CORES > NOISY_LOAD && Date.now() - started < SETTLE_SECONDS * 1000) await sleep(1000);
  const settledSeconds = (Date.now() - started) / 1000;
  const loadBefore = os.loadavg();
  const busy = await idleBusy();
  const reasons: string[] = [];
  if (loadBefore[0] / CORES > NOISY_LOAD) reasons.push(`1-min load ${loadBefore[0].toFixed(2)} = ${(loadBefore[0] / CORES).toFixed(2)} per core > ${NOISY_LOAD}`);
  if (busy && busy.some((b) => b > NOISY_IDLE_BUSY)) reasons.push(`cores ${busy.map((b) => `${(b * 100).toFixed(0)}%`).join('/')} busy while the bench was idle`);
  return { loadBefore, idleBusy: busy, settledSeconds, noisy: reasons.length > 0, reason: reasons.join('; ') || undefined };
}

export function describeMachine(state: MachineState): string {
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
  return (
    `load average (1/5/15 min, ${CORES} cores) ${load(state.loadBefore)}` +
    (state.loadAfter ? ` before, ${load(state.loadAfter)} after` : '') +
    (state.idleBusy ? `; cores busy while idle ${state.idleBusy.map((b) => `${(b * 100).toFixed(0)}%`).join('/')}` : '') +
    (state.settledSeconds >= 1 ? `; waited ${state.settledSeconds.toFixed(0)} s for the load to settle` : '') +
    (state.noisy ? ` — NOISY: ${state.reason}` : '')
  );
}
