import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type { TestApi } from '../helpers/api';
import { useAppPage } from '../helpers/browser';
import { logIn, signUp, toast } from './support';

describe('e2e: workspaces in the user menu', function () {
  this.timeout(60_000);
  let api: TestApi;
  let page: Page;

  useAppPage((s) => ({ api, page } = s));

  const storedWorkspaceId = () => page.evaluate<number | undefined>("JSON.parse(localStorage.getItem('balcao.workspace') ?? '{}').workspaceId");

  it('creates a second workspace with "Novo workspace", then switches back with the toast', async () => {
    const account = await signUp(api);
    await logIn(page, account);
    const firstId = await storedWorkspaceId();

    await page.getByRole('button', { name: 'Abrir menu do usuário' }).click();
    await page.getByRole('menuitem', { name: 'Novo workspace' }).click();
    const dialog = page.getByRole('dialog', { name: 'Novo workspace' });
    await dialog.getByRole('button', { name: 'Criar workspace' }).click();
    // Name is required: the field says so and nothing is created.
    expect(await dialog.getByLabel('Nome do workspace').getAttribute('aria-invalid')).to.equal('true');
    await dialog.getByLabel('Nome do workspace').fill('Filial Sul');
    await dialog.getByRole('button', { name: 'Criar workspace' }).click();

    await toast(page, 'Você está agora no workspace Filial Sul');
    await page.waitForURL('**/inbox/all');
    expect(await page.getByTestId('current-workspace').innerText()).to.equal('Filial Sul');
    const secondId = await storedWorkspaceId();
    expect(secondId).to.be.a('number').and.not.equal(firstId);

    await page.getByRole('button', { name: 'Abrir menu do usuário' }).click();
    const menu = page.getByRole('menu');
    expect(await menu.getByRole('menuitem', { name: 'Filial Sul' }).getAttribute('aria-current')).to.equal('true');
    await menu.getByRole('menuitem', { name: account.workspace }).click();

    await toast(page, `Você está agora no workspace ${account.workspace}`);
    await page.getByTestId('current-workspace').getByText(account.workspace, { exact: true }).waitFor();
    expect(await storedWorkspaceId()).to.equal(firstId);

    // The switch survives a reload: it is the stored session, renewed by the server.
    await page.reload();
    expect(await page.getByTestId('current-workspace').innerText()).to.equal(account.workspace);
  });
});
