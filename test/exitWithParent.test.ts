import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';

describe('api and worker started by npm start', () => {
  it('end themselves once the npm start that started them is gone (kill -9 leaves no orphans)', async function () {
    this.timeout(20_000);
    // A stand-in for npm start that we can kill.
    const parent = spawn(process.execPath, ['-e', 'setInterval(() => undefined, 1000)'], { stdio: 'ignore' });
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '-e', `import('${path.resolve('api/exitWithParent.ts')}').then(({ exitWithParent }) => { exitWithParent(process.env, 100); process.once('SIGTERM', () => { console.log('stopping'); process.exit(0); }); setInterval(() => undefined, 1000); console.log('ready'); });`],
      { env: { ...process.env, BALCAO_PARENT_PID: String(parent.pid) }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    await new Promise<void>((resolve) => child.stdout.on('data', () => out.includes('ready') && resolve()));
    await new Promise((r) => setTimeout(r, 300));
    expect(child.exitCode, 'still running while its parent lives').to.equal(null);
    parent.kill('SIGKILL');
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).to.equal(0);
    expect(out, 'went through its own SIGTERM handler (graceful stop)').to.include('stopping');
  });
});
