import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type { TestApi } from '../helpers/api';
import { useAppPage } from '../helpers/browser';
import { logIn, signUp, toast } from './support';

describe('e2e: account settings', function () {
  this.timeout(60_000);
  let api: TestApi;
  let page: Page;

  useAppPage((s) => ({ api, page } = s));

  it('/settings opens the profile; saving it toasts "Perfil atualizado" and renames the user menu', async () => {
    const account = await signUp(api);
    await logIn(page, account);
    await page.getByRole('link', { name: 'Configurações' }).click();
    await page.waitForURL('**/settings/account/profile');

    const name = page.getByLabel(/^Nome/);
    // The form fills itself from the profile once it loads: clearing the field before that is undone by it.
    await page.waitForFunction(([el, expected]) => (el as { value?: string } | null)?.value === expected, [await name.elementHandle(), account.name] as const);
    await name.fill('');
    await page.getByRole('button', { name: 'Salvar' }).click();
    // The form marks the field once its validation has run after the click: wait for it, do not read it at once.
    await name.and(page.locator('[aria-invalid="true"]')).waitFor();
    expect(await name.getAttribute('aria-invalid')).to.equal('true');
    expect(await page.getByLabel('E-mail').getAttribute('readonly')).to.not.equal(null);

    await name.fill('Ana Souza Lima');
    await page.getByLabel('Telefone').fill('+55 11 91234-5678');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Perfil atualizado');
    await page.getByRole('button', { name: 'Abrir menu do usuário' }).getByText('Ana Souza Lima').waitFor();

    const profile = await api.request('GET', '/api/operators/profile', {
      token: await page.evaluate<string>("JSON.parse(localStorage.getItem('balcao.workspace')).token"),
    });
    expect(profile.body.data).to.include({ name: 'Ana Souza Lima', phone: '+55 11 91234-5678' });
  });

  it('changing the password toasts "Senha alterada" and keeps the operator logged in with the fresh session', async () => {
    const account = await signUp(api);
    await logIn(page, account);
    const oldToken = await page.evaluate<string>("JSON.parse(localStorage.getItem('balcao.workspace')).token");
    await page.goto('/settings/account/profile/password');
    await page.getByLabel('Senha atual').fill(account.password);
    await page.getByLabel(/^Nova senha/).fill('abc');
    await page.getByLabel('Confirme a nova senha').fill('abc');
    await page.getByRole('button', { name: 'Salvar' }).click();
    expect(await page.getByText('Sua senha deve ter no mínimo 6 caracteres').count()).to.be.greaterThan(0);

    await page.getByLabel(/^Nova senha/).fill('senha-nova-123');
    await page.getByLabel('Confirme a nova senha').fill('senha-nova-123');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Senha alterada');
    const newToken = await page.evaluate<string>("JSON.parse(localStorage.getItem('balcao.workspace')).token");
    expect(newToken).to.not.equal(oldToken);

    // Older tokens are invalid now; the stored one is the fresh one, so the app keeps working.
    await page.goto('/settings/account/profile');
    await page.getByLabel(/^Nome/).waitFor();
    expect(await page.getByLabel(/^Nome/).inputValue()).to.equal(account.name);
    expect(new URL(page.url()).pathname).to.equal('/settings/account/profile');
  });

  it('stores the 8 theme colours as one comma-separated preference and applies them on the next page load', async () => {
    const account = await signUp(api);
    await logIn(page, account);
    await page.goto('/settings/account/preferences');
    await page.getByLabel('Fundo da barra lateral').fill('#123456');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Preferências salvas');

    const stored = await page.evaluate<string>("localStorage.getItem('balcao.theme')");
    expect(stored.split(',')).to.have.length(8);
    expect(stored.split(',')[0]).to.equal('#123456');
    await page.goto('/inbox/all');
    // Runs in the page; the test tsconfig has no DOM types.
    const bg = await page.getByRole('navigation', { name: 'Caixas de entrada' }).evaluate((el) => (globalThis as any).getComputedStyle(el).backgroundColor as string);
    expect(bg).to.equal('rgb(18, 52, 86)');
  });

  it("'Geral' lists Brazil's time zones first by their names, and saves the zone with the bot take-over preference", async () => {
    const account = await signUp(api);
    await logIn(page, account);
    await page.goto('/settings/account/workspace');
    const zone = page.getByLabel('Fuso horário');
    await page.waitForFunction(() => ((globalThis as any).document.querySelector('#field-timeZone') as { value: string } | null)?.value === 'America/Sao_Paulo');
    const groups = await zone.locator('optgroup').evaluateAll((els) => els.map((el) => (el as any).label as string));
    expect(groups).to.deep.equal(['Brasil', 'Outros fusos']);
    const firstNames = await zone.locator('optgroup').first().locator('option').evaluateAll((els) => els.slice(0, 2).map((el) => (el as any).textContent as string));
    expect(firstNames).to.deep.equal(['Brasília (DF, SP, RJ, MG, Sul, GO, BA, Nordeste) — America/Sao_Paulo', 'Fernando de Noronha — America/Noronha']);
    const takeOver = page.getByLabel('Atribuir ao agente que responder no lugar do bot');
    expect(await takeOver.isChecked()).to.equal(true);

    await zone.selectOption('America/Manaus');
    await takeOver.uncheck();
    await page.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Workspace atualizado');
    const row = await api.deps.knex('workspaces').where({ name: account.workspace }).first('time_zone', 'assign_on_manual_reply');
    expect(row).to.deep.equal({ timeZone: 'America/Manaus', assignOnManualReply: false });
  });
});
