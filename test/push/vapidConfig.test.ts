import { expect } from 'chai';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../api/config';

describe('VAPID keys in the configuration (docs/pwa.md)', () => {
  const base = { JWT_SECRET: 'x'.repeat(48), MQTT_INTERNAL_PASSWORD: 'x', CHANNEL_SECRETS_KEY: 'x' };

  it('generates a P-256 pair once into DATA_DIR (mode 600) and reads the same pair on the next start', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'balcao-vapid-'));
    const first = loadConfig({ ...base, DATA_DIR: dir });
    const file = path.join(dir, 'vapid-keys.json');
    expect(statSync(file).mode & 0o777).to.equal(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).to.deep.equal({ publicKey: first.vapidPublicKey, privateKey: first.vapidPrivateKey });
    expect(Buffer.from(first.vapidPublicKey, 'base64url')).to.have.length(65);
    expect(Buffer.from(first.vapidPrivateKey, 'base64url')).to.have.length(32);
    const again = loadConfig({ ...base, DATA_DIR: dir });
    expect([again.vapidPublicKey, again.vapidPrivateKey]).to.deep.equal([first.vapidPublicKey, first.vapidPrivateKey]);
    expect(first.vapidSubject).to.equal('mailto:notificacoes@localhost');
  });

  it('takes VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT from the environment, and refuses one key without the other', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'balcao-vapid-'));
    const c = loadConfig({ ...base, DATA_DIR: dir, VAPID_PUBLIC_KEY: 'pub', VAPID_PRIVATE_KEY: 'priv', VAPID_SUBJECT: 'mailto:ti@loja.com.br', PUBLIC_URL: 'https://app.loja.com.br' });
    expect([c.vapidPublicKey, c.vapidPrivateKey, c.vapidSubject]).to.deep.equal(['pub', 'priv', 'mailto:ti@loja.com.br']);
    expect(loadConfig({ ...base, DATA_DIR: dir, PUBLIC_URL: 'https://app.loja.com.br' }).vapidSubject).to.equal('mailto:notificacoes@app.loja.com.br');
    expect(() => loadConfig({ ...base, DATA_DIR: dir, VAPID_PUBLIC_KEY: 'pub' })).to.throw('VAPID_PUBLIC_KEY e VAPID_PRIVATE_KEY devem ser definidas juntas.');
  });
});
