import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { Worker } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { createLogger } from '../../api/logger';
import type { TestApi } from '../helpers/api';
import { useAppPage } from '../helpers/browser';
import { makeOperator, makeWorkspace, unique, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { prepareWorker, type WorkerSetup } from '../channels/helpers';
import { jsonContract, sha256 } from '../api/contractsFixtures';
import { cutOff, logIn, toast, VIEWPORTS } from './support';

const FILE = jsonContract({ nome: 'Maria da Silva', cpf: '529.982.247-25', numeroContrato: 'CT-2026-0001', valor: 15000 });

for (const viewport of VIEWPORTS) {
  describe(`e2e: Contratos (${viewport.name} ${viewport.width} × ${viewport.height})`, function () {
    this.timeout(180_000);
    let api: TestApi;
    let page: Page;
    let setup: WorkerSetup;
    let ws: TestWorkspace;
    let owner: TestOperator;

    // The import workflow runs on a worker beside the app, as `npm start` runs it, on this test's own queue.
    useAppPage((s) => ({ api, page } = s), () => ({ temporalTaskQueue: unique('e2e-contracts') }));
    before(async () => {
      setup = await prepareWorker();
    });
    after(async () => {
      await setup?.connection.close();
    });
    beforeEach(async () => {
      ws = await makeWorkspace(api.deps.knex);
      owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 6, { name: 'Marta Gerente' });
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    });

    const nothingCutOff = async (where: string) => expect(await cutOff(page), where).to.deep.equal([]);
    const withWorker = async (fn: () => Promise<void>) => {
      const worker = await Worker.create({
        connection: setup.connection,
        taskQueue: api.config.temporalTaskQueue,
        workflowBundle: setup.workflowBundle,
        activities: createActivities({ knex: api.deps.knex, publisher: api.deps.publisher, logger: createLogger('silent'), config: api.config }),
      });
      await worker.runUntil(fn());
    };

    it("chooses the files from the keyboard: Tab reaches 'Escolher arquivos' and Enter opens the file chooser", async () => {
      await logIn(page, owner);
      // Listening from here turns the file chooser's interception on well before Enter is pressed.
      const chooserShown = page.waitForEvent('filechooser', { timeout: 30_000 });
      void chooserShown.catch(() => undefined);
      await page.goto('/contracts');
      await page.getByRole('button', { name: 'Importar Contrato' }).click();
      const dialog = page.getByRole('dialog', { name: 'Importar Contrato' });
      await dialog.getByRole('combobox', { name: 'Tipo do contrato' }).focus();
      const focused = () => page.evaluate<string>('document.activeElement?.textContent ?? ""');
      for (let i = 0; i < 5 && (await focused()) !== 'Escolher arquivos'; i++) await page.keyboard.press('Tab');
      expect(await focused(), 'Tab reaches the button').to.equal('Escolher arquivos');
      await page.keyboard.press('Enter');
      const chooser = await chooserShown;
      expect(chooser.isMultiple()).to.equal(true);
      await chooser.setFiles({ name: FILE.name, mimeType: 'application/json', buffer: Buffer.from(FILE.bytes) });
      await dialog.getByText(FILE.name).waitFor();
    });

    it('imports a file, finds it in Pendentes once processed, opens its detail, copies the stamp, edits the type and formalizes it', async () => {
      await logIn(page, owner);
      // 'Contratos' in the user menu, beside 'Assinatura' (level 6+).
      await page.getByRole('button', { name: 'Abrir menu do usuário' }).click();
      await page.getByRole('menu').getByRole('menuitem', { name: 'Contratos' }).click();
      await page.waitForURL('**/contracts');
      await page.getByRole('heading', { name: 'Contratos' }).waitFor();
      await page.getByTestId('contracts-empty').waitFor();
      await nothingCutOff('empty list');

      // SPEC §5: a type and at least one file.
      await page.getByRole('button', { name: 'Importar Contrato' }).click();
      const dialog = page.getByRole('dialog', { name: 'Importar Contrato' });
      await dialog.getByTestId('contract-import-submit').click();
      await dialog.getByText('Selecione o tipo do contrato.').waitFor();
      await dialog.getByText('Selecione ao menos um arquivo.').waitFor();
      // The files' error is the button's description, as the type's is the select's.
      expect(await dialog.getByRole('button', { name: 'Escolher arquivos' }).getAttribute('aria-describedby')).to.equal('contract-import-files-error');
      if (viewport.name === 'phone') {
        const box = (await dialog.boundingBox())!;
        expect([box.width, box.height], 'the dialog takes the whole phone screen').to.deep.equal([viewport.width, viewport.height]);
      }
      await dialog.getByRole('combobox', { name: 'Tipo do contrato' }).click();
      await page.getByRole('option', { name: 'Empréstimo consignado' }).click();
      await dialog.getByText('Formatos aceitos: JSON, CSV, PDF.').waitFor();
      await dialog.getByTestId('contract-import-files').setInputFiles({ name: FILE.name, mimeType: 'application/json', buffer: Buffer.from(FILE.bytes) });
      await dialog.getByText(FILE.name).waitFor();
      await nothingCutOff('import dialog');

      await withWorker(async () => {
        await dialog.getByTestId('contract-import-submit').click();
        await toast(page, 'Importação bem sucedida. Sua importação será processada em breve.');
        await dialog.waitFor({ state: 'detached' });
        // Processed by the import workflow: the row turns 'Aguardando Formalização' live and is in Pendentes.
        await page.getByTestId('contract-row').filter({ hasText: 'Aguardando Formalização' }).waitFor({ timeout: 30_000 });
      });
      const row = await api.deps.knex('contracts').where({ workspaceId: ws.id }).first('id', 'status', 'stamp');
      expect(row).to.deep.equal({ id: row.id, status: 'processed', stamp: sha256(FILE.bytes) });
      await page.getByRole('tab', { name: 'Pendentes' }).click();
      await page.waitForURL('**/contracts?tab=pending');
      const pending = page.getByTestId('contract-row').filter({ hasText: 'Maria da Silva' });
      await pending.waitFor();
      expect(await page.getByTestId('contract-row').count()).to.equal(1);
      await page.getByRole('tab', { name: 'Concluídos' }).click();
      await page.getByTestId('contracts-empty').waitFor();
      await page.getByRole('tab', { name: 'Pendentes' }).click();
      await nothingCutOff('pending list');

      // The detail modal: every field, the CPF masked and checked, the JSON.
      await pending.getByText('Maria da Silva').click();
      await page.waitForURL(`**/contracts/${row.id}?tab=pending`);
      const detail = page.getByRole('dialog', { name: 'Maria da Silva' });
      await detail.getByText('CT-2026-0001', { exact: true }).waitFor();
      expect(await detail.getByTestId('contract-cpf').innerText()).to.match(/529\.982\.247-25\s*CPF válido/);
      await detail.getByText('Aguardando Formalização').waitFor();
      expect(await detail.getByTestId('contract-stamp').innerText()).to.equal(sha256(FILE.bytes));
      expect(JSON.parse(await detail.getByTestId('contract-json').innerText())).to.deep.equal(JSON.parse(FILE.bytes as string));
      if (viewport.name === 'phone') {
        const box = (await detail.boundingBox())!;
        expect([box.width, box.height], 'the detail takes the whole phone screen').to.deep.equal([viewport.width, viewport.height]);
      }
      await nothingCutOff('detail');

      // Copy the stamp (SPEC §8 toast).
      await detail.getByRole('button', { name: 'Copiar hash' }).click();
      await toast(page, 'Hash Serpro copiado para clipboard');
      expect(await page.evaluate<string>('navigator.clipboard.readText()')).to.equal(sha256(FILE.bytes));

      // The type edit: saving waits for a change.
      const save = detail.getByRole('button', { name: 'Salvar tipo' });
      expect(await save.isDisabled()).to.equal(true);
      await detail.getByRole('combobox', { name: 'Tipo' }).click();
      await page.getByRole('option', { name: 'Cédula de Crédito Bancário (CCB)' }).click();
      await save.click();
      await toast(page, 'Tipo do contrato atualizado.');
      expect((await api.deps.knex('contracts').where({ id: row.id }).first('code')).code).to.equal('ccb');

      // The file opens in a new window by a signed link.
      const [request, popup] = await Promise.all([
        page.context().waitForEvent('request', (r) => r.url().includes('/download?authorization=')),
        page.waitForEvent('popup'),
        detail.getByRole('button', { name: /^Baixar/ }).click(),
      ]);
      const link = request.url();
      await popup.close();
      expect(link).to.match(new RegExp(`/api/contract/${row.id}/download\\?authorization=${ws.id}\\.`));
      const fetched = await fetch(`${api.url}${new URL(link).pathname}${new URL(link).search}`);
      expect(Buffer.from(await fetched.arrayBuffer()).toString()).to.equal(FILE.bytes);

      // Formalized: in Concluídos, and it can no longer be deleted.
      await detail.getByRole('button', { name: 'Formalizar' }).click();
      await toast(page, 'Contrato formalizado.');
      await detail.getByText('Formalizado', { exact: true }).waitFor();
      expect(await detail.getByRole('button', { name: 'Excluir' }).isDisabled()).to.equal(true);
      // The reason is said, not hidden in a tooltip a disabled button never shows.
      await detail.getByText('Um contrato formalizado não pode ser excluído.').waitFor();
      expect(await detail.getByRole('button', { name: 'Excluir' }).getAttribute('aria-describedby')).to.equal('contract-delete-hint');
      await detail.getByRole('button', { name: 'Fechar' }).click();
      await page.waitForURL('**/contracts?tab=pending');
      await page.getByRole('tab', { name: 'Concluídos' }).click();
      await page.getByTestId('contract-row').filter({ hasText: 'Maria da Silva' }).waitFor();
    });
  });
}
