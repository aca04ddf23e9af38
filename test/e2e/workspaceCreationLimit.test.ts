import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type { TestApi } from '../helpers/api';
import { useAppPage } from '../helpers/browser';
import { logIn, signUp } from './support';

describe('e2e: the workspace creation limit in "Novo workspace"', function () {
  this.timeout(60_000);
  let api: TestApi;
  let page: Page;

  useAppPage((s) => ({ api, page } = s));

  it('an account that opened 10 workspaces today sees the server’s reason in the dialog and no workspace is created', async () => {
    const account = await signUp(api);
    const login = await api.request('POST', '/api/operators/login', { body: { email: account.email, password: account.password } });
    const token = login.body.data.workspace.token as string;
    for (let i = 0; i < 9; i++) expect((await api.request('POST', '/api/workspace', { token, body: { name: `Filial ${i + 1}` } })).status).to.equal(201);

    await logIn(page, account);
    await page.getByRole('button', { name: 'Abrir menu do usuário' }).click();
    await page.getByRole('menuitem', { name: 'Novo workspace' }).click();
    const dialog = page.getByRole('dialog', { name: 'Novo workspace' });
    await dialog.getByLabel('Nome do workspace').fill('Filial 10');
    await dialog.getByRole('button', { name: 'Criar workspace' }).click();
    await dialog.getByRole('alert').getByText(/^Você já criou 10 workspaces nas últimas 24 horas\. Tente novamente em \d+ horas?\.$/).waitFor();
    expect(await page.getByTestId('current-workspace').innerText()).to.equal(account.workspace);
    const owned = (await api.deps.knex('workspaceMembers').where({ operatorId: login.body.data.user.id, accessLevel: 10 }).count({ n: '*' }).first())?.n;
    expect(Number(owned)).to.equal(10);
  });
});
