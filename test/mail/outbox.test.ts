import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { loadConfig } from '../../api/config';
import { createLogger } from '../../api/logger';
import { createMailer } from '../../api/mail/mailer';

const mode = (p: string) => statSync(p).mode & 0o777;

/** Issue 10 item 14: outbox mails (SMTP_URL unset) carry reset links; only the api's user may read them. */
describe('mail: the outbox is readable by its owner only', () => {
  const mailerIn = (dataDir: string) => createMailer({ ...loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(48), MQTT_INTERNAL_PASSWORD: 'y' }), smtpUrl: undefined }, createLogger('silent'));
  const reset = { to: 'ana@exemplo.com.br', subject: 'Redefinir senha', text: 'Abra o link', link: 'http://localhost:3000/user/reset?token=segredo' };
  let previousUmask: number;

  // A permissive umask, so only the modes the mailer asks for can keep others out.
  before(() => {
    previousUmask = process.umask(0o000);
  });
  after(() => {
    process.umask(previousUmask);
  });

  it('writes each mail 0600 in an outbox directory 0700', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'balcao-mail-'));
    await mailerIn(dataDir).send(reset);
    const outbox = path.join(dataDir, 'outbox');
    expect(mode(outbox).toString(8)).to.equal('700');
    const [file] = readdirSync(outbox);
    expect(mode(path.join(outbox, file)).toString(8)).to.equal('600');
    expect(JSON.parse(readFileSync(path.join(outbox, file), 'utf8'))).to.include({ to: reset.to, link: reset.link });
  });

  it('closes an outbox an older version left open', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'balcao-mail-'));
    mkdirSync(path.join(dataDir, 'outbox'), { mode: 0o755 });
    expect(mode(path.join(dataDir, 'outbox')).toString(8)).to.equal('755');
    await mailerIn(dataDir).send(reset);
    expect(mode(path.join(dataDir, 'outbox')).toString(8)).to.equal('700');
  });
});
