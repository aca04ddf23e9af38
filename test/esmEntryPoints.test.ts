import { spawnSync } from 'node:child_process';
import { expect } from 'chai';

/**
 * `npm start` loads the api and the worker as ES modules (node --import tsx), while mocha loads tests
 * through tsx's CommonJS path, which accepts named imports that Node's ESM loader refuses from
 * CommonJS packages (Baileys' `proto` crashed the worker at start while every test passed).
 */
describe('entry points load as ES modules, the way npm start runs them', () => {
  it('imports the api app, the worker activities and the WhatsApp socket without a missing export', function () {
    this.timeout(60_000);
    const script = "Promise.all([import('./api/app.ts'), import('./activities/index.ts'), import('./activities/workerProcess.ts'), import('./workflows/index.ts'), import('./activities/channels/whatsapp/baileysSocket.ts')]).then(() => process.exit(0), (e) => { console.error(e.message); process.exit(1); })";
    const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8' });
    expect(run.stderr.trim(), 'no load error').to.equal('');
    expect(run.status).to.equal(0);
  });
});
