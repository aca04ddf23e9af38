import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, DefaultLogger, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { createLogger } from '../../api/logger';
import { loadConfig, type Config } from '../../api/config';
import { createStorage, type FileStorage } from '../../api/storage/storage';
import { newStorageKey } from '../../api/storage/keys';
import type { TemporalGateway } from '../../api/temporal/client';
import { reconcileContractImports } from '../../activities/contracts/reconcileContractImports';
import { PROCESS_MESSAGES } from '../../activities/contracts/contractActivities';
import { workflowIds } from '../../workflows/ids';
import { contractImport, type ContractImportInput } from '../../workflows';
import { testDatabase } from '../helpers/db';
import { makeOperator, makeWorkspace, unique, type TestWorkspace } from '../helpers/factories';
import { timeSkippingEnvironment } from '../helpers/temporal';
import { RecordingPublisher } from './subscription/rows';
import { jsonContract, sha256, type ContractFilePart } from '../api/contractsFixtures';

const workflowsPath = fileURLToPath(new URL('../../workflows/index.ts', import.meta.url));

describe('contractImport workflow: each file hashed, parsed and settled on its own (time-skipping server, real database and storage)', function () {
  this.timeout(180_000);
  let env: TestWorkflowEnvironment;
  let knex: Knex;
  let bundle: WorkflowBundleWithSourceMap;
  let config: Config;
  let storage: FileStorage;

  before(async () => {
    [env, { knex }, bundle] = await Promise.all([timeSkippingEnvironment(), testDatabase(), bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('WARN') })]);
    config = loadConfig({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'balcao-contracts-')), JWT_SECRET: 'contracts-test'.padEnd(48, 'x'), MQTT_INTERNAL_PASSWORD: 'x' });
    storage = createStorage(config);
  });
  after(async () => {
    await env?.teardown();
  });

  let taskQueue: string;
  let publisher: RecordingPublisher;
  let ws: TestWorkspace;
  beforeEach(async () => {
    taskQueue = unique('contracts');
    publisher = new RecordingPublisher();
    ws = await makeWorkspace(knex);
  });

  type Activities = ReturnType<typeof createActivities>;
  const worker = (override: Partial<Activities> = {}) =>
    Worker.create({ connection: env.nativeConnection, taskQueue, workflowBundle: bundle, activities: { ...createActivities({ knex, publisher, logger: createLogger('silent'), config }), ...override } });
  const gateway = () => ({ client: async () => env.client, taskQueue }) as unknown as TemporalGateway;

  /** What POST /contract/import leaves behind: each file in storage and stored_files, and its contract `created`. */
  async function imported(parts: ContractFilePart[], code = 'consignado'): Promise<ContractImportInput> {
    const importId = randomUUID();
    const contractIds: number[] = [];
    for (const p of parts) {
      const key = newStorageKey();
      const bytes = Buffer.from(p.bytes);
      await storage.put(key, Readable.from([bytes]));
      await knex('stored_files').insert({ workspaceId: ws.id, key, fileName: p.name, mime: p.name.endsWith('.pdf') ? 'application/pdf' : 'text/plain', size: bytes.length, sha256: sha256(bytes) });
      const [row] = await knex('contracts').insert({ workspaceId: ws.id, name: p.name, fileName: p.name, code, status: 'created', path: key, importId }).returning('id');
      contractIds.push(row.id);
    }
    return { workspaceId: ws.id, importId, contractIds };
  }
  const run = (input: ContractImportInput) => env.client.workflow.execute(contractImport, { taskQueue, workflowId: workflowIds.contractImport(input.workspaceId, input.importId), args: [input] });
  const row = (id: number) => knex('contracts').where({ id }).first();

  it('one good file and one bad file: the bad one is failed with its reason, the good one processed with its stamp, and level 6+ members are told', async () => {
    const good = jsonContract({ nome: 'Maria da Silva', cpf: '52998224725', numeroContrato: 'WF-1' });
    const bad = { name: 'ruim.json', bytes: '{"nome": "Rui", "cpf": "123", "numeroContrato": ""}' };
    const master = await makeOperator(knex, config.jwtSecret, ws, 6);
    const agent = await makeOperator(knex, config.jwtSecret, ws, 3);
    const input = await imported([bad, good]);
    const [badId, goodId] = input.contractIds as [number, number];
    const w = await worker();
    const result = await w.runUntil(run(input));
    expect(result.done).to.deep.equal({ [badId]: 'failed', [goodId]: 'processed' });
    expect(await row(badId)).to.include({ status: 'failed', error: 'CPF inválido: confira os dígitos. Informe o número do contrato (campo numeroContrato).', stamp: sha256(bad.bytes), json: null });
    expect(await row(goodId)).to.include({ status: 'processed', name: 'Maria da Silva', cpf: '52998224725', loanNumber: 'WF-1', stamp: sha256(good.bytes), error: null });
    const told = publisher.events.filter((e) => e.event === 'contract.status');
    expect(told.filter((e) => e.topic === `ws/${ws.id}/op/${master.id}`).map((e) => e.data)).to.deep.equal([
      { id: badId, status: 'failed', error: 'CPF inválido: confira os dígitos. Informe o número do contrato (campo numeroContrato).' },
      { id: goodId, status: 'processed', error: null },
    ]);
    expect(told.some((e) => e.topic === `ws/${ws.id}/op/${agent.id}`)).to.equal(false);
  });

  it('a file whose activity keeps failing (storage away) is failed after its retries and the next file still goes on', async () => {
    const input = await imported([jsonContract({ nome: 'A', cpf: '52998224725', numeroContrato: 'R-1' }), jsonContract({ nome: 'B', cpf: '11144477735', numeroContrato: 'R-2' })]);
    const [stuck, fine] = input.contractIds as [number, number];
    const real = createActivities({ knex, publisher, logger: createLogger('silent'), config });
    let attempts = 0;
    const w = await worker({
      processContract: async (ref) => {
        if (ref.contractId !== stuck) return real.processContract(ref);
        attempts++;
        throw new Error('storage unavailable');
      },
    });
    const result = await w.runUntil(run(input));
    expect(attempts).to.equal(5);
    expect(result.done).to.deep.equal({ [stuck]: 'failed', [fine]: 'processed' });
    expect(await row(stuck)).to.include({ status: 'failed', error: PROCESS_MESSAGES.internal });
    expect(await row(fine)).to.include({ status: 'processed' });
  });

  it('fails a contract whose stored file is gone or no longer matches its hash', async () => {
    const input = await imported([jsonContract({ nome: 'A', cpf: '52998224725', numeroContrato: 'G-1' }), jsonContract({ nome: 'B', cpf: '52998224725', numeroContrato: 'G-2' })]);
    const [gone, changed] = input.contractIds as [number, number];
    await storage.delete((await row(gone)).path);
    await storage.put((await row(changed)).path, Readable.from([Buffer.from('{"nome":"Outro","cpf":"52998224725","numeroContrato":"G-2"}')]));
    const w = await worker();
    await w.runUntil(run(input));
    expect(await row(gone)).to.include({ status: 'failed', error: PROCESS_MESSAGES.missingFile });
    expect(await row(changed)).to.include({ status: 'failed', error: PROCESS_MESSAGES.changedFile });
  });

  it('the start-up reconcile starts an import whose workflow never started, and a second run processes nothing twice', async () => {
    const input = await imported([jsonContract({ nome: 'A', cpf: '52998224725', numeroContrato: 'U-1' })]);
    const [id] = input.contractIds as [number];
    const w = await worker();
    await w.runUntil(async () => {
      expect(await reconcileContractImports({ knex, logger: createLogger('silent'), temporal: gateway() }, { workspaceIds: [ws.id] })).to.equal(1);
      const result = await env.client.workflow.getHandle(workflowIds.contractImport(ws.id, input.importId)).result();
      expect(result.done).to.deep.equal({ [id]: 'processed' });
      // Nothing left `created`: nothing to start.
      expect(await reconcileContractImports({ knex, logger: createLogger('silent'), temporal: gateway() }, { workspaceIds: [ws.id] })).to.equal(0);
      const processedAt = (await row(id)).updatedAt;
      // The same import run again (a replayed start) leaves the processed contract as it is.
      const again = await run(input);
      expect(again.done).to.deep.equal({ [id]: 'skipped' });
      expect((await row(id)).updatedAt).to.deep.equal(processedAt);
    });
  });
});
