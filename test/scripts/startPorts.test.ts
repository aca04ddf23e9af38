import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { freePort } from '../../api/system/processes';

/** Runs `npm start`'s script with `env` until it exits; its output and exit code. */
function runStart(env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('npm start: the api’s ports taken', function () {
  this.timeout(60_000);

  for (const name of ['PORT', 'SMTP_PORT'] as const) {
    it(`stops at once with a pt-BR reason when ${name} is taken (an earlier Balcão still running), starting nothing`, async () => {
      const taken = net.createServer();
      await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
      const port = (taken.address() as net.AddressInfo).port;
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'balcao-start-'));
      try {
        const other = name === 'PORT' ? { SMTP_PORT: String(await freePort()) } : { PORT: String(await freePort()) };
        const { code, output } = await runStart({ ...other, [name]: String(port), DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(await freePort()) });
        expect(code).to.equal(1);
        expect(output).to.include(`a porta ${port} (${name}) já está em uso`);
        expect(output, 'nothing was started').to.not.match(/PostgreSQL embutido em|Temporal dev server em|Balcão está no ar/);
      } finally {
        taken.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }
});
