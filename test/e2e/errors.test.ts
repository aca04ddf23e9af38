import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type { TestApi } from '../helpers/api';
import { useAppPage } from '../helpers/browser';
import { newAccount, signUp } from './support';

describe('e2e: the error catalogue in forms (SPEC §8)', function () {
  this.timeout(60_000);
  let api: TestApi;
  let page: Page;

  useAppPage((s) => ({ api, page } = s));

  it('shows a server error with a key on its field: registering an e-mail already in use', async () => {
    const taken = await signUp(api);
    const again = { ...newAccount(), email: taken.email };
    await page.goto(`/user/register?email=${encodeURIComponent(again.email)}`);
    await page.getByLabel('Seu nome').fill(again.name);
    await page.getByLabel('Nome da empresa').fill(again.workspace);
    await page.getByLabel('Senha').fill(again.password);
    await page.getByLabel(/aceito os termos/).check();
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/signup'));
    await page.getByRole('button', { name: 'Criar conta' }).click();
    const res = await answer;
    const entry = ((await res.json()) as { errors: { key: string; descriptions: string[] }[] }).errors[0]!;
    expect(entry.key).to.equal('email');

    const email = page.getByLabel('E-mail de trabalho');
    await page.getByText(entry.descriptions[0]!).waitFor();
    expect(await email.getAttribute('aria-invalid')).to.equal('true');
    // The message is the field's description, so screen readers read it with the field.
    const describedBy = await email.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${describedBy}"]`).innerText()).to.equal(entry.descriptions[0]);
    expect(new URL(page.url()).pathname).to.equal('/user/register');
  });

  it('shows "Erro de conexão" when the server cannot be reached and the status when the answer has no error shape', async () => {
    await page.goto('/user/login');
    await page.getByLabel('E-mail').fill('alguem@exemplo.com.br');
    await page.getByLabel('Senha').fill('qualquer-coisa');

    await page.route('**/api/operators/login', (route) => route.abort('connectionrefused'));
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.getByRole('alert').getByText('Erro de conexão. Sem contato com servidor').waitFor();

    await page.unroute('**/api/operators/login');
    await page.route('**/api/operators/login', (route) => route.fulfill({ status: 502, contentType: 'text/html', body: '<h1>Bad gateway</h1>' }));
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.getByRole('alert').getByText('Erro inesperado no servidor (Erro 502)').waitFor();
  });
});
