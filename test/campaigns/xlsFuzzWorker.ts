/**
 * The .xls fuzz run (xlsFuzz.test.ts) in a child process, so a mutation that made the reader loop can be
 * stopped from outside: mutates the fixtures with a seeded PRNG and reports every outcome as it goes.
 */
import { readFileSync } from 'node:fs';
import { compoundFileStream, XlsUnreadable, xlsRows } from '../../activities/campaigns/xlsReader';
import { prng } from '../../scripts/lib/prng';

export interface FuzzJob {
  files: { name: string; path: string; mutations: number }[];
  seed: number;
}

export type FuzzReport =
  | { kind: 'start'; file: string; index: number }
  | { kind: 'done'; file: string; index: number; outcome: 'parsed' | 'refused'; ms: number }
  | { kind: 'unexpected'; file: string; index: number; error: string; ops: string[] }
  | { kind: 'finished' };


const INTERESTING_16 = [0, 1, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xfffe, 0xffff];
const INTERESTING_32 = [0, 1, 0x7fffffff, 0x80000000, 0xfffffffa, 0xfffffffc, 0xfffffffd, 0xfffffffe, 0xffffffff, 0x1000];

class TooManyRows extends Error {}

/** Where the BIFF records of the Workbook stream start in the file (xlwt writes the stream in one run of sectors). */
function recordHeaders(file: Buffer): number[] {
  const stream = compoundFileStream(file, ['Workbook'])!;
  const base = file.indexOf(stream.subarray(0, 64));
  const at: number[] = [];
  for (let i = 0; i + 4 <= stream.length && base >= 0; ) {
    at.push(base + i);
    i += 4 + stream.readUInt16LE(i + 2);
  }
  return at;
}

/** One mutant of `original`: 1 to 4 operations, each described (to reproduce a failure by hand). */
function mutate(original: Buffer, headers: number[], rnd: () => number): { bytes: Buffer; ops: string[] } {
  let bytes = Buffer.from(original);
  const ops: string[] = [];
  const int = (n: number) => Math.floor(rnd() * n);
  const pick = <T>(xs: T[]) => xs[int(xs.length)];
  for (let k = 1 + int(4); k > 0; k--) {
    const op = int(8);
    const at = int(bytes.length);
    if (op === 0) {
      bytes[at] ^= 1 << int(8);
      ops.push(`flip bit at ${at}`);
    } else if (op === 1) {
      bytes[at] = pick([0, 0xff, 0x7f, 0x80, int(256)]);
      ops.push(`byte at ${at} = ${bytes[at]}`);
    } else if (op === 2 && at + 2 <= bytes.length) {
      const v = pick(INTERESTING_16);
      bytes.writeUInt16LE(v, at & ~1);
      ops.push(`u16 at ${at & ~1} = ${v}`);
    } else if (op === 3 && at + 4 <= bytes.length) {
      const v = pick(INTERESTING_32);
      bytes.writeUInt32LE(v, at & ~3);
      ops.push(`u32 at ${at & ~3} = ${v}`);
    } else if (op === 4 && headers.length) {
      // A BIFF record header: its type or its length.
      const h = pick(headers);
      const field = h + (rnd() < 0.5 ? 0 : 2);
      const v = pick([...INTERESTING_16, int(0x10000), int(64)]);
      if (field + 2 <= bytes.length) bytes.writeUInt16LE(v, field);
      ops.push(`record header u16 at ${field} = ${v}`);
    } else if (op === 5) {
      bytes = bytes.subarray(0, at);
      ops.push(`truncate to ${at}`);
    } else if (op === 6) {
      const len = 1 + int(512);
      const from = int(bytes.length);
      bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(from, from + len), bytes.subarray(at)]);
      ops.push(`insert ${len} bytes from ${from} at ${at}`);
    } else {
      const len = 1 + int(512);
      bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + len)]);
      ops.push(`delete ${len} bytes at ${at}`);
    }
  }
  return { bytes, ops };
}

function run(job: FuzzJob): void {
  const post = (r: FuzzReport) => process.send!(r);
  const rnd = prng(job.seed);
  for (const f of job.files) {
    const original = readFileSync(f.path);
    const headers = recordHeaders(original);
    for (let index = 0; index < f.mutations; index++) {
      const { bytes, ops } = mutate(original, headers, rnd);
      post({ kind: 'start', file: f.name, index });
      const t0 = performance.now();
      try {
        xlsRows(bytes, { maxRows: 200_000, maxColumns: 20 }, () => new TooManyRows('linhas demais'));
        post({ kind: 'done', file: f.name, index, outcome: 'parsed', ms: performance.now() - t0 });
      } catch (err) {
        if (err instanceof XlsUnreadable || err instanceof TooManyRows) post({ kind: 'done', file: f.name, index, outcome: 'refused', ms: performance.now() - t0 });
        else post({ kind: 'unexpected', file: f.name, index, error: err instanceof Error ? `${err.name}: ${err.message}\n${err.stack ?? ''}` : String(err), ops });
      }
    }
  }
  post({ kind: 'finished' });
}

// The test stops this process once it has read 'finished'.
process.once('message', (job: FuzzJob) => run(job));
