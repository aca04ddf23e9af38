import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { ensureTemporalTools } from '../../scripts/lib/tools';
import { devServerArgs } from '../../scripts/lib/temporalDevServer';
import { freePort, portAnswers } from '../../api/system/processes';

const connects = (host: string, port: number) => portAnswers(port, host, 1000);


describe('the Temporal dev server npm start runs', function () {
  this.timeout(90_000);

  it('keeps its frontend and its Web UI (no login, tenant payloads) on 127.0.0.1 only', async () => {
    const { temporalCli } = await ensureTemporalTools();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'balcao-temporal-'));
    const port = await freePort();
    const uiPort = await freePort();
    const child = spawn(temporalCli, devServerArgs({ port, uiPort, dbFile: path.join(dir, 'temporal.db') }), { stdio: 'ignore' });
    try {
      const until = Date.now() + 60_000;
      while (!(await connects('127.0.0.1', uiPort)) && Date.now() < until) await new Promise((r) => setTimeout(r, 250));
      expect(await connects('127.0.0.1', uiPort), 'Web UI on loopback').to.equal(true);
      expect(await connects('127.0.0.1', port), 'frontend on loopback').to.equal(true);
      // 127.0.0.2 is loopback too on Linux but not the bound address: a server on 0.0.0.0 would answer it.
      expect(await connects('127.0.0.2', uiPort), 'Web UI not on other addresses').to.equal(false);
      expect(await connects('127.0.0.2', port), 'frontend not on other addresses').to.equal(false);
    } finally {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
