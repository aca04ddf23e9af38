import { mkdtempSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { STORAGE_BUDGETS } from '../../api/assets/storageBudgets';
import { InboundStorageFullError, storeInboundFile } from '../../api/channels/inboundFile';
import { testDatabase } from '../helpers/db';
import { makeWorkspace, unique, type TestWorkspace } from '../helpers/factories';
import { makeChannel, type TestChannel } from '../inbox/factories';

/**
 * storeInboundFile (api/channels/inboundFile.ts): a channel's inbound file counts against the workspace's
 * storage budget at store time, and a refusal leaves nothing behind, also when the room is taken between
 * the first check and the recording of the row (another api node storing at the same moment).
 */
describe('Inbound channel files and the workspace storage budget', () => {
  let knex: Knex;
  let ws: TestWorkspace;
  let channel: TestChannel;
  let dataDir: string;

  before(async () => {
    ({ knex } = await testDatabase());
  });
  beforeEach(async () => {
    ws = await makeWorkspace(knex);
    channel = await makeChannel(knex, ws, 'telegram');
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'balcao-inbound-'));
  });

  const objects = async () => (await readdir(path.join(dataDir, 'files'), { recursive: true, withFileTypes: true }).catch(() => [])).filter((e) => e.isFile()).length;
  const fill = (db: Knex, bytes: number) => db('stored_files').insert({ workspaceId: ws.id, key: unique('full').replace(/[^A-Za-z0-9_-]/g, ''), fileName: 'outro.bin', mime: 'application/octet-stream', size: bytes });
  const owner = () => ({ workspaceId: ws.id, channelId: channel.id });

  it('stores a file that fits, counted in the workspace total', async () => {
    const file = await storeInboundFile({ knex, config: { dataDir } }, owner(), { bytes: Buffer.from('cabe'), fileName: 'a.txt', mime: 'text/plain' });
    expect(file).to.include({ fileName: 'a.txt', size: 4 });
    expect(await knex('stored_files').where({ key: file.key }).first()).to.include({ workspaceId: ws.id, channelId: channel.id, size: 4 });
    expect(await objects()).to.equal(1);
  });

  it('refuses a file past the budget before writing it: InboundStorageFullError with the note, no object, no row', async () => {
    await fill(knex, STORAGE_BUDGETS.workspaceTotal - 3);
    const err = await storeInboundFile({ knex, config: { dataDir } }, owner(), { bytes: Buffer.from('não cabe'), fileName: 'b.pdf', mime: 'application/pdf' }).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(InboundStorageFullError);
    expect((err as InboundStorageFullError).note).to.equal('Arquivo "b.pdf" não recebido: o espaço para arquivos deste workspace (10 GB) está cheio.');
    expect(await knex('stored_files').where({ workspaceId: ws.id, fileName: 'b.pdf' })).to.have.length(0);
    expect(await objects()).to.equal(0);
  });

  it('when the room is taken after the first check, the exact check under the lock refuses it and the written object is removed', async () => {
    // Another node records a big file between our first check and our transaction.
    let raced = false;
    const racing = new Proxy(knex, {
      get(target, prop, receiver) {
        if (prop === 'transaction') {
          return async (...args: Parameters<Knex['transaction']>) => {
            if (!raced) {
              raced = true;
              await fill(target, STORAGE_BUDGETS.workspaceTotal - 3);
            }
            return (target.transaction as (...a: unknown[]) => unknown)(...args);
          };
        }
        return Reflect.get(target, prop, receiver) as unknown;
      },
    });
    const err = await storeInboundFile({ knex: racing, config: { dataDir } }, owner(), { bytes: Buffer.from('quase coube'), fileName: 'c.pdf', mime: 'application/pdf' }).catch((e: unknown) => e);
    expect(raced).to.equal(true);
    expect(err).to.be.instanceOf(InboundStorageFullError);
    expect(await knex('stored_files').where({ workspaceId: ws.id, fileName: 'c.pdf' })).to.have.length(0);
    expect(await objects(), 'the object written before the check is gone').to.equal(0);
  });
});
