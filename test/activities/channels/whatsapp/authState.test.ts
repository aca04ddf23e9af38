import { expect } from 'chai';
import type { Knex } from 'knex';
import { BufferJSON, Curve, initAuthCreds, type KeyPair } from 'baileys';
import { waProto } from '../../../../activities/channels/whatsapp/waProto';
import { testDatabase } from '../../../helpers/db';
import { usePostgresAuthState } from '../../../../activities/channels/whatsapp/authState';
import { createStateCipher } from '../../../../activities/channels/whatsapp/stateCipher';
import { makeQrLine, type TestQrLine } from '../../../channels/whatsapp/qr/helpers';
import { defaultQrSessionOptions } from '../../../../activities/channels/whatsappQrSession';
import type { ActivityDeps } from '../../../../activities/deps';
import type { Config } from '../../../../api/config';

const json = (v: unknown) => JSON.stringify(v, BufferJSON.replacer);

describe('WhatsApp QR auth state in PostgreSQL (encrypted, per line)', () => {
  let knex: Knex;
  let line: TestQrLine;
  const cipher = createStateCipher('chave-de-teste-1');

  before(async () => {
    ({ knex } = await testDatabase());
  });
  beforeEach(async () => {
    line = await makeQrLine(knex);
  });

  it('a new line starts from fresh Baileys creds; saved creds come back identical on the next start', async () => {
    const first = await usePostgresAuthState(knex, cipher, line);
    const fresh = initAuthCreds();
    expect(Object.keys(first.state.creds).sort()).to.deep.equal(Object.keys(fresh).sort());
    first.state.creds.me = { id: '5511999990000:12@s.whatsapp.net', lid: '123456789012345:12@lid', name: 'Loja' };
    first.state.creds.registered = true;
    await first.saveCreds();

    const again = await usePostgresAuthState(knex, cipher, line);
    expect(json(again.state.creds)).to.equal(json(first.state.creds));
    expect(Buffer.isBuffer(again.state.creds.noiseKey.private)).to.equal(true);
    expect(Buffer.compare(again.state.creds.signedIdentityKey.public, first.state.creds.signedIdentityKey.public)).to.equal(0);
  });

  it('round-trips every signal key type (pre-keys, sessions, sender keys, sender-key memory, app-state keys and versions)', async () => {
    const { state } = await usePostgresAuthState(knex, cipher, line);
    const preKey: KeyPair = Curve.generateKeyPair();
    const session = Buffer.from('{"_sessions":{"base":"sessão"}}');
    const senderKey = Uint8Array.from([1, 2, 3, 250]);
    const syncKey = waProto.Message.AppStateSyncKeyData.fromObject({ keyData: Buffer.from('chave-app-state'), fingerprint: { rawId: 7, currentIndex: 1, deviceIndexes: [0, 1] }, timestamp: 1732500000 });
    const version = { version: 3, hash: Buffer.alloc(128, 9), indexValueMap: { 'aW5kZXg=': { valueMac: Buffer.from('mac') } } };
    await state.keys.set({
      'pre-key': { '1': preKey },
      session: { '5511988887777.0': session },
      'sender-key': { '120363000000000000@g.us::5511988887777::0': senderKey },
      'sender-key-memory': { '120363000000000000@g.us': { '5511988887777:0@s.whatsapp.net': true } },
      'app-state-sync-key': { AAAAAAc: syncKey },
      'app-state-sync-version': { regular_high: version },
    });

    const reopened = (await usePostgresAuthState(knex, cipher, line)).state;
    const pre = await reopened.keys.get('pre-key', ['1', '2']);
    expect(Object.keys(pre)).to.deep.equal(['1']);
    expect(Buffer.compare(Buffer.from(pre['1'].private), Buffer.from(preKey.private))).to.equal(0);
    expect(Buffer.compare(Buffer.from(pre['1'].public), Buffer.from(preKey.public))).to.equal(0);
    expect((await reopened.keys.get('session', ['5511988887777.0']))['5511988887777.0']).to.deep.equal(session);
    expect(Buffer.from((await reopened.keys.get('sender-key', ['120363000000000000@g.us::5511988887777::0']))['120363000000000000@g.us::5511988887777::0'])).to.deep.equal(Buffer.from(senderKey));
    expect((await reopened.keys.get('sender-key-memory', ['120363000000000000@g.us']))['120363000000000000@g.us']).to.deep.equal({ '5511988887777:0@s.whatsapp.net': true });
    const sync = (await reopened.keys.get('app-state-sync-key', ['AAAAAAc'])).AAAAAAc;
    // Baileys reads keyData off a proto instance, as its own file store hands it back.
    expect(sync).to.be.instanceOf(waProto.Message.AppStateSyncKeyData);
    expect(Buffer.from(sync.keyData!).toString()).to.equal('chave-app-state');
    expect(sync.fingerprint?.deviceIndexes).to.deep.equal([0, 1]);
    const ver = (await reopened.keys.get('app-state-sync-version', ['regular_high'])).regular_high;
    expect(ver.version).to.equal(3);
    expect(Buffer.compare(ver.hash, version.hash)).to.equal(0);
    expect(Buffer.from(ver.indexValueMap['aW5kZXg='].valueMac).toString()).to.equal('mac');
  });

  it('set with null deletes the key', async () => {
    const { state } = await usePostgresAuthState(knex, cipher, line);
    await state.keys.set({ 'pre-key': { '5': Curve.generateKeyPair(), '6': Curve.generateKeyPair() } });
    await state.keys.set({ 'pre-key': { '5': null } });
    expect(Object.keys(await state.keys.get('pre-key', ['5', '6']))).to.deep.equal(['6']);
    expect(await knex('whatsapp_auth_state').where({ channelId: line.channelId, type: 'pre-key' }).pluck('key_id')).to.deep.equal(['6']);
  });

  it('stores only ciphertext: neither the key material nor its JSON appears in the table', async () => {
    const auth = await usePostgresAuthState(knex, cipher, line);
    auth.state.creds.me = { id: '5511999990000:12@s.whatsapp.net', name: 'Loja Segredo' };
    await auth.saveCreds();
    const preKey = Curve.generateKeyPair();
    await auth.state.keys.set({ 'pre-key': { '9': preKey } });
    const rows: { value: Buffer }[] = await knex('whatsapp_auth_state').where({ channelId: line.channelId }).select('value');
    expect(rows).to.have.length(2);
    const needles = [
      Buffer.from('Loja Segredo'),
      Buffer.from('5511999990000'),
      Buffer.from('noiseKey'),
      Buffer.from(Buffer.from(auth.state.creds.noiseKey.private).toString('base64')),
      Buffer.from(auth.state.creds.noiseKey.private),
      Buffer.from(preKey.private),
      Buffer.from(Buffer.from(preKey.private).toString('base64')),
    ];
    for (const { value } of rows) for (const needle of needles) expect(value.includes(needle), needle.toString('hex')).to.equal(false);
  });

  it('a wrong key fails loudly instead of starting a new session', async () => {
    const auth = await usePostgresAuthState(knex, cipher, line);
    await auth.saveCreds();
    await auth.state.keys.set({ 'pre-key': { '1': Curve.generateKeyPair() } });
    let error: unknown;
    try {
      await usePostgresAuthState(knex, createStateCipher('outra-chave'), line);
    } catch (err) {
      error = err;
    }
    expect(String(error)).to.match(/CHANNEL_SECRETS_KEY/);
  });

  it("the worker's cipher is keyed by CHANNEL_SECRETS_KEY (config.channelSecretsKey), the key of the other channel secrets", async () => {
    const deps = { knex, config: { channelSecretsKey: 'chave-dos-canais' } as Config } as ActivityDeps;
    const sealed = createStateCipher('chave-dos-canais').seal('sessão', 'creds:');
    expect(defaultQrSessionOptions(deps).cipher().open(sealed, 'creds:')).to.equal('sessão');
    const other = { knex, config: { channelSecretsKey: 'outra-chave-dos-canais' } as Config } as ActivityDeps;
    expect(() => defaultQrSessionOptions(other).cipher().open(sealed, 'creds:')).to.throw(/CHANNEL_SECRETS_KEY/);
  });

  it('a row moved to another line does not open (the row address is authenticated)', async () => {
    const auth = await usePostgresAuthState(knex, cipher, line);
    await auth.saveCreds();
    const other = await makeQrLine(knex);
    const row = await knex('whatsapp_auth_state').where({ channelId: line.channelId, type: 'creds' }).first('value');
    await knex('whatsapp_auth_state').insert({ workspaceId: other.workspaceId, channelId: other.channelId, type: 'creds', keyId: '', value: row.value });
    let error: unknown;
    await usePostgresAuthState(knex, cipher, other).catch((err) => (error = err));
    expect(String(error)).to.match(/could not be opened/);
  });

  it('clear forgets the session of that line only', async () => {
    const a = await usePostgresAuthState(knex, cipher, line);
    await a.saveCreds();
    const otherLine = await makeQrLine(knex);
    const b = await usePostgresAuthState(knex, cipher, otherLine);
    await b.saveCreds();
    await a.clear();
    expect(await knex('whatsapp_auth_state').where({ channelId: line.channelId }).count('* as n').first()).to.deep.equal({ n: 0 });
    expect(await knex('whatsapp_auth_state').where({ channelId: otherLine.channelId }).count('* as n').first()).to.deep.equal({ n: 1 });
  });
});
