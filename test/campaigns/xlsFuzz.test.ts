import path from 'node:path';
import { fork } from 'node:child_process';
import { expect } from 'chai';
import type { FuzzJob, FuzzReport } from './xlsFuzzWorker';

const fixtures = path.join(__dirname, 'fixtures');
/** Fixed: the same mutants on every run, so a failure names a mutant anyone can replay. */
const SEED = 0x25_0021;
/** Longest one mutant may take (the fixtures read in a few ms); past it the reader counts as hung and the run is killed. */
const PER_MUTANT_MS = 2000;
/** Until the child's first report: starting node with tsx and loading the reader, slow on a busy machine, is not a mutant. */
const STARTUP_MS = 30_000;

describe('.xls reader fuzz (activities/campaigns/xlsReader.ts): seeded mutations of the fixtures', function () {
  this.timeout(60_000);

  it('every mutant of numeros.xls and muitos.xls is read or refused with XlsUnreadable, each within its time bound: no other error, no hang', async () => {
    const job: FuzzJob = {
      seed: SEED,
      files: [
        { name: 'numeros.xls', path: path.join(fixtures, 'numeros.xls'), mutations: 4000 },
        { name: 'muitos.xls', path: path.join(fixtures, 'muitos.xls'), mutations: 1000 },
      ],
    };
    const worker = fork(path.join(__dirname, 'xlsFuzzWorker.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    worker.send(job);
    const outcomes = { parsed: 0, refused: 0 };
    const unexpected: Extract<FuzzReport, { kind: 'unexpected' }>[] = [];
    let slowest = { ms: 0, at: '' };
    let current = '(starting)';
    try {
      await new Promise<void>((resolve, reject) => {
        let watchdog: NodeJS.Timeout;
        const arm = (ms = PER_MUTANT_MS) => {
          clearTimeout(watchdog);
          watchdog = setTimeout(() => reject(new Error(`the reader did not finish ${current} within ${ms} ms (seed ${SEED})`)), ms);
        };
        arm(STARTUP_MS);
        worker.on('message', (r: FuzzReport) => {
          arm();
          if (r.kind === 'start') current = `${r.file} mutant #${r.index}`;
          else if (r.kind === 'done') {
            outcomes[r.outcome]++;
            if (r.ms > slowest.ms) slowest = { ms: r.ms, at: `${r.file} mutant #${r.index}` };
          } else if (r.kind === 'unexpected') unexpected.push(r);
          else {
            clearTimeout(watchdog);
            resolve();
          }
        });
        worker.on('error', (err) => {
          clearTimeout(watchdog);
          reject(err);
        });
        worker.on('exit', (code, signal) => {
          clearTimeout(watchdog);
          reject(new Error(`the fuzz run ended (${signal ?? code}) during ${current}`));
        });
      });
    } finally {
      worker.removeAllListeners('exit');
      worker.kill('SIGKILL');
    }
    expect(unexpected.slice(0, 3), `errors other than XlsUnreadable (seed ${SEED})`).to.deep.equal([]);
    expect(outcomes.parsed + outcomes.refused).to.equal(5000);
    // The mutants reach both ends: some still read, some refused (a fuzz that only broke the header would prove little).
    expect(outcomes.parsed, 'mutants read').to.be.above(100);
    expect(outcomes.refused, 'mutants refused').to.be.above(100);
    expect(slowest.ms, `slowest: ${slowest.at}`).to.be.below(PER_MUTANT_MS);
  });
});
