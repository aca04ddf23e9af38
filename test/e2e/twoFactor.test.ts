import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type { TestApi } from '../helpers/api';
import { useAppPage } from '../helpers/browser';
import { makeOperator, makeWorkspace } from '../helpers/factories';
import { codeAt, enableTwoFactor, wrongCode } from '../twoFactor/helpers';
import { logIn, signUp } from './support';

/** The secret the setup screen shows under its QR code (the same one the QR's otpauth:// URI carries). */
async function readSecret(page: Page): Promise<string> {
  const shown = page.getByTestId('two-factor-secret');
  await shown.waitFor();
  const secret = await shown.getAttribute('data-secret');
  expect(secret).to.match(/^[A-Z2-7]{32}$/);
  expect((await shown.innerText()).replace(/\s/g, '')).to.equal(secret);
  await page.getByRole('img', { name: 'QR code para o aplicativo autenticador' }).waitFor();
  return secret!;
}

async function passwordLogin(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/user/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Senha').fill(password);
  await page.getByRole('button', { name: 'Entrar' }).click();
}

describe('e2e: two-factor login (TOTP)', function () {
  this.timeout(90_000);
  let api: TestApi;
  let page: Page;

  useAppPage((s) => ({ api, page } = s));

  it('enables it from the profile with the QR secret and a first code, shows the backup codes once, then asks for a code after the password', async () => {
    const account = await signUp(api);
    await logIn(page, account);
    await page.goto('/settings/account/profile');
    const section = page.getByRole('region', { name: 'Verificação em duas etapas' });
    // The settings chunk loads on this first visit: on a busy machine the first click can take a while.
    await section.getByRole('button', { name: 'Ativar' }).click({ timeout: 30_000 });

    const dialog = page.getByRole('dialog', { name: 'Ativar verificação em duas etapas' });
    const secret = await readSecret(page);
    await dialog.getByLabel('Código de 6 dígitos').fill(await wrongCode(secret));
    await dialog.getByRole('button', { name: 'Ativar' }).click();
    await dialog.getByText('Código incorreto. Confira o aplicativo autenticador e tente de novo.').waitFor();
    await dialog.getByLabel('Código de 6 dígitos').fill(await codeAt(secret));
    await dialog.getByRole('button', { name: 'Ativar' }).click();

    const codes = page.getByTestId('backup-codes').getByRole('listitem');
    await page.getByRole('dialog', { name: 'Guarde seus códigos de recuperação' }).waitFor();
    expect(await codes.count()).to.equal(10);
    for (const c of await codes.allInnerTexts()) expect(c).to.match(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    await page.getByRole('button', { name: 'Já guardei meus códigos' }).click();
    await section.getByText(/^Ativa desde/).waitFor();
    await section.getByText('Códigos de recuperação restantes: 10 de 10.').waitFor();
    // The session the app holds now is the fresh one enabling answered: the page still works after a reload.
    await page.reload();
    await section.getByText(/^Ativa desde/).waitFor();

    await page.getByRole('button', { name: 'Abrir menu do usuário' }).click();
    await page.getByRole('menuitem', { name: 'Sair' }).click();
    await page.waitForURL('**/user/login');

    await passwordLogin(page, account.email, account.password);
    await page.waitForURL('**/user/two-factor');
    await page.getByRole('heading', { name: 'Verificação em duas etapas' }).waitFor();
    // No session before the code.
    expect(await page.evaluate<string | null>("localStorage.getItem('balcao.workspace')")).to.equal(null);
    // The code of the step enabling used is spent; the app's next one opens the inbox.
    await page.getByLabel('Código').fill(await codeAt(secret, 1));
    await page.getByRole('button', { name: 'Verificar' }).click();
    await page.waitForURL('**/inbox/all');
    await page.getByRole('navigation', { name: 'Navegação principal' }).waitFor();
  });

  it('sends a member of a workspace that requires it to the setup at login, and into the app only after the first code', async () => {
    const ws = await makeWorkspace(api.deps.knex);
    const owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10);
    const agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
    const { token } = await enableTwoFactor(api, owner.token);
    expect((await api.request('PUT', '/api/workspace/two-factor', { token, body: { required: true } })).status).to.equal(200);

    await passwordLogin(page, agent.email, agent.password);
    await page.waitForURL('**/user/two-factor');
    await page.getByRole('heading', { name: 'Ative a verificação em duas etapas' }).waitFor();
    await page.getByText(`O workspace ${ws.name} exige a verificação em duas etapas de todos os membros.`, { exact: false }).waitFor();
    // The app stays closed meanwhile.
    await page.goto('/inbox/all');
    await page.waitForURL('**/user/login');

    await passwordLogin(page, agent.email, agent.password);
    await page.waitForURL('**/user/two-factor');
    const secret = await readSecret(page);
    await page.getByLabel('Código de 6 dígitos').fill(await codeAt(secret));
    await page.getByRole('button', { name: 'Ativar' }).click();
    await page.getByRole('heading', { name: 'Guarde seus códigos de recuperação' }).waitFor();
    expect(await page.getByTestId('backup-codes').getByRole('listitem').count()).to.equal(10);
    await page.getByRole('button', { name: 'Entrar no Balcão' }).click();
    await page.waitForURL('**/inbox/all');

    // Their profile says who requires it: no plain "Desativar", only changing phone (which signs out).
    await page.goto('/settings/account/profile');
    const section = page.getByRole('region', { name: 'Verificação em duas etapas' });
    await section.getByText(`Exigida por: ${ws.name}.`).waitFor({ timeout: 30_000 });
    expect(await section.getByRole('button', { name: 'Desativar' }).count()).to.equal(0);
    await section.getByRole('button', { name: 'Trocar de celular ou aplicativo' }).click();
    const dialog = page.getByRole('dialog', { name: 'Trocar de celular ou aplicativo' });
    await dialog.getByLabel('Código').fill(await codeAt(secret, 1));
    await dialog.getByRole('button', { name: 'Sair e configurar de novo' }).click();
    await page.waitForURL('**/user/login');
    await passwordLogin(page, agent.email, agent.password);
    await page.getByRole('heading', { name: 'Ative a verificação em duas etapas' }).waitFor();
  });
});
