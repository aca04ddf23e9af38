/**
 * `npm test`: type check, lint, UI build, then mocha (unit, API, workflows, realtime) and the browser
 * e2e suite. `npm run test:reliability` (argument `reliability`) runs test/reliability/ alone. Every part runs even when an earlier one fails; the last line sums the mocha results.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureUiBuilt } from './lib/uiBuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const bin = (name: string) => path.join(root, 'node_modules/.bin', name);

interface StepResult {
  name: string;
  ok: boolean;
  passed: number;
  failed: number;
  pending: number;
  seconds: number;
  /** Mocha's failure list (from 'N failing' on), cut short: repeated under the summary so a log's tail names them. */
  failures: string;
}

function run(name: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<StepResult> {
  const started = Date.now();
  console.log(`\n━━ ${name} ━━`);
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      process.stdout.write(c);
    });
    child.on('exit', (code) => {
      const count = (re: RegExp) => Number(re.exec(out)?.[1] ?? 0);
      resolve({
        name,
        ok: code === 0,
        passed: count(/^\s*(\d+) passing/m),
        failed: count(/^\s*(\d+) failing/m),
        pending: count(/^\s*(\d+) pending/m),
        seconds: Math.round((Date.now() - started) / 1000),
        failures: failureList(out),
      });
    });
  });
}

/** The failing tests' titles and first lines of their errors, at most 12 lines each and 80 in all. */
function failureList(out: string): string {
  const start = out.search(/^\s*\d+ failing/m);
  if (start < 0) return '';
  const blocks = out.slice(start).split(/\n(?=\s{2}\d+\) )/).slice(1);
  return blocks
    .map((b) => b.split('\n').filter((l) => l.trim() && !/^\s+at /.test(l)).slice(0, 12).join('\n'))
    .join('\n')
    .split('\n')
    .slice(0, 80)
    .join('\n');
}

/**
 * Suites run a second time on the embedded PostgreSQL of npm start (TEST_DATABASE=embedded). test/db is not
 * among them: it already runs the migrations and the server's own checks on the embedded server in every run
 * (test/db/schema.test.ts, test/db/embeddedPostgres.test.ts).
 */
const EMBEDDED_SUITES = ['test/auth/**/*.test.ts', 'test/apiTokens/**/*.test.ts', 'test/security/auth.test.ts', 'test/security/mqtt.test.ts'];

async function main(): Promise<void> {
  const only = process.argv[2];
  const results: StepResult[] = [];
  if (!only || only === 'static') {
    results.push(await run('typecheck (api)', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']));
    results.push(await run('typecheck (ui)', bin('tsc'), ['-p', 'ui/tsconfig.json', '--noEmit']));
    results.push(await run('lint', bin('eslint'), ['.', '--max-warnings', '0', '--no-warn-ignored']));
  }
  if (!only || only === 'unit') {
    results.push(await run('mocha: unit, api, workflows, realtime', bin('mocha'), ['test/**/*.test.ts', '--ignore', 'test/e2e/**', '--ignore', 'test/reliability/**', '--ignore', 'test/cluster/**']));
    // The database npm start runs (test/helpers/db.ts): when the machine's PostgreSQL answered above, the
    // token and session checks run again on the embedded server, whose behaviour once differed (issue 10).
    results.push(await run('mocha: auth on the embedded PostgreSQL', bin('mocha'), EMBEDDED_SUITES, { TEST_DATABASE: 'embedded' }));
  }
  // Slow (kill -9, outages, restarts, the cluster: about 6 minutes): `npm run test:reliability`, which .ci/run also calls.
  if (only === 'reliability') {
    results.push(await run('mocha: reliability', bin('mocha'), ['test/reliability/**/*.test.ts']));
    results.push(await run('mocha: api crash on the embedded PostgreSQL', bin('mocha'), ['test/reliability/apiCrash.test.ts'], { TEST_DATABASE: 'embedded' }));
    // The scale-out topology of npm run cluster (docs/scaling.md): 2 api nodes, 2 workers, RabbitMQ, haproxy.
    results.push(await run('mocha: cluster', bin('mocha'), ['test/cluster/**/*.test.ts']));
  }
  if (!only || only === 'e2e') {
    try {
      ensureUiBuilt(root);
      results.push(await run('mocha: browser e2e', bin('mocha'), ['--config', '.mocharc.e2e.json', 'test/e2e/**/*.test.ts']));
    } catch (err) {
      console.error(err);
      results.push({ name: 'ui build', ok: false, passed: 0, failed: 1, pending: 0, seconds: 0, failures: String(err) });
    }
  }
  console.log('\n━━ resumo ━━');
  for (const r of results) {
    const counts = r.passed || r.failed ? ` (${r.passed} ok, ${r.failed} falhas${r.pending ? `, ${r.pending} pendentes` : ''})` : '';
    console.log(`${r.ok ? '✔' : '✘'} ${r.name}${counts} ${r.seconds}s`);
  }
  const failing = results.filter((r) => r.failures);
  if (failing.length) {
    console.log('\n━━ falhas ━━');
    for (const r of failing) console.log(`${r.name}:\n${r.failures}`);
  }
  const passed = results.reduce((n, r) => n + r.passed, 0);
  // A failing step without mocha counts (type check, lint) is one failure.
  const failed = results.reduce((n, r) => n + (r.failed || (r.ok ? 0 : 1)), 0);
  const pending = results.reduce((n, r) => n + r.pending, 0);
  console.log(`tests: ${passed} passed, ${failed} failed${pending ? `, ${pending} skipped` : ''}`);
  process.exit(results.every((r) => r.ok) ? 0 : 1);
}

void main();
