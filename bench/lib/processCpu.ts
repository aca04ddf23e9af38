import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time of groups of processes over a span, from /proc (Linux): what each part of a topology (api
 * nodes, workers, PostgreSQL, the broker, the load balancer) used while a phase ran, and what the rest of
 * the machine used meanwhile (other people's work), so a figure on a shared machine can be read for what
 * it is. Times are user + system of each process (all its threads), in ms; USER_HZ is 100 on Linux.
 */
const CLOCK_TICKS = 100;

export interface ProcStat {
  pid: number;
  ppid: number;
  comm: string;
  /** user + system, ms. */
  cpuMs: number;
}

/** One line of /proc/<pid>/stat; `comm` may hold spaces and parentheses, so fields count from the last ')'. */
export function parseStat(line: string): ProcStat | undefined {
  const open = line.indexOf('(');
  const close = line.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  const fields = line.slice(close + 2).split(' ');
  // After comm: state(0) ppid(1) … utime(11) stime(12).
  return { pid: Number(line.slice(0, open).trim()), comm: line.slice(open + 1, close), ppid: Number(fields[1]), cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS };
}

/** Every process the machine shows now (a process that ends while this reads is left out). */
export function allProcesses(): ProcStat[] {
  const out: ProcStat[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = parseStat(readFileSync(`/proc/${name}/stat`, 'utf8'));
      if (stat) out.push(stat);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** `pid` and every process below it (a script that started the real server as its child: RabbitMQ's Erlang VM). */
export function withDescendants(pid: number, table: Pick<ProcStat, 'pid' | 'ppid'>[]): number[] {
  const children = new Map<number, number[]>();
  for (const p of table) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
  const out: number[] = [];
  const queue = [pid];
  while (queue.length) {
    const next = queue.shift()!;
    if (out.includes(next)) continue;
    out.push(next);
    queue.push(...(children.get(next) ?? []));
  }
  return out;
}

/** Groups of processes by name: each group's pids, decided when a snapshot is taken. */
export type Groups = Record<string, number[]>;

export interface CpuSnapshot {
  at: number;
  /** CPU ms so far per pid of every group. */
  perPid: Map<number, number>;
  groups: Groups;
  /** The whole machine's busy time so far, ms (all cores, /proc/stat). */
  machineBusyMs: number;
}

/** The machine's busy time over all cores, ms, from the first line of /proc/stat (USER_HZ units). */
export function machineBusyMs(procStat = readFileSync('/proc/stat', 'utf8')): number {
  const [user, nice, system, , , irq, softirq, steal] = procStat.split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return ((user + nice + system + irq + softirq + steal) * 1000) / CLOCK_TICKS;
}

export function snapshot(groups: Groups, table = allProcesses()): CpuSnapshot {
  const cpu = new Map(table.map((p) => [p.pid, p.cpuMs]));
  const perPid = new Map<number, number>();
  for (const pids of Object.values(groups)) for (const pid of pids) if (cpu.has(pid)) perPid.set(pid, cpu.get(pid)!);
  return { at: Date.now(), perPid, groups, machineBusyMs: machineBusyMs() };
}

export interface GroupCpu {
  name: string;
  cpuMs: number;
  /** Cores used on average over the span (1 = one core all the time). */
  cores: number;
}

export interface CpuSpan {
  seconds: number;
  groups: GroupCpu[];
  /** Sum over the groups. */
  total: GroupCpu;
  /** The machine's busy time not in any group (other people's work, the kernel, what was not named). */
  rest: GroupCpu;
}

/**
 * CPU of each group between two snapshots. A pid in the later snapshot's groups but not in the earlier one
 * started during the span (a new PostgreSQL backend): all its time counts. A pid gone by the end is lost
 * (counted 0): groups should be taken from long-lived processes.
 */
export function cpuBetween(before: CpuSnapshot, after: CpuSnapshot): CpuSpan {
  const seconds = Math.max(0.001, (after.at - before.at) / 1000);
  const groups = Object.entries(after.groups).map(([name, pids]) => {
    const cpuMs = pids.reduce((sum, pid) => (after.perPid.has(pid) ? sum + after.perPid.get(pid)! - (before.perPid.get(pid) ?? 0) : sum), 0);
    return { name, cpuMs, cores: cpuMs / 1000 / seconds };
  });
  const totalMs = groups.reduce((a, g) => a + g.cpuMs, 0);
  const restMs = Math.max(0, after.machineBusyMs - before.machineBusyMs - totalMs);
  return { seconds, groups, total: { name: 'total', cpuMs: totalMs, cores: totalMs / 1000 / seconds }, rest: { name: 'rest of the machine', cpuMs: restMs, cores: restMs / 1000 / seconds } };
}
