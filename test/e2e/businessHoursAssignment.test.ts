import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type { TestApi } from '../helpers/api';
import type { TestOperator, TestWorkspace } from '../helpers/factories';
import { makeChannel, makeGroup } from '../inbox/factories';
import { logIn, toast, useOwnerPage } from './support';

describe('e2e: Horário comercial and Atribuição Automática settings', function () {
  this.timeout(120_000);
  let api: TestApi;
  let page: Page;
  let ws: TestWorkspace;
  let owner: TestOperator;

  useOwnerPage((s) => ({ api, page, ws, owner } = s));

  it('creates a schedule with a closed day and a start moved past its end, then edits it', async () => {
    await logIn(page, owner);
    await page.goto('/settings/business-hours');
    await page.getByRole('link', { name: 'Novo horário' }).click();
    await page.waitForURL('**/settings/business-hours/new');
    await page.getByLabel(/^Nome/).fill('Comercial');
    // A new schedule opens as Monday–Friday 08:00–18:00, the weekend closed.
    await page.getByRole('group', { name: 'Domingo' }).getByText('Fechado o dia todo').waitFor();
    await page.getByRole('switch', { name: 'Sexta-feira: Aberto' }).uncheck();
    await page.getByRole('group', { name: 'Sexta-feira' }).getByText('Fechado o dia todo').waitFor();
    // Monday's first range is 08:00–18:00; a start at 19:00 resets its end to the last slot (00:00).
    expect(await page.getByRole('combobox', { name: 'Segunda-feira Fim 1' }).textContent()).to.equal('18:00');
    await page.getByRole('combobox', { name: 'Segunda-feira Início 1' }).click();
    await page.getByRole('option', { name: '19:00', exact: true }).click();
    expect(await page.getByRole('combobox', { name: 'Segunda-feira Fim 1' }).textContent()).to.equal('00:00');
    // The edit route the save leads to loads the saved record into the form: type only after that load,
    // or it replaces what was typed (slow on a busy machine).
    const recordLoaded = page.waitForResponse((r) => /\/api\/business-hours\/\d+$/.test(r.url()) && r.request().method() === 'GET', { timeout: 20_000 });
    await page.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Horário Comercial criado');
    await page.waitForURL(/\/settings\/business-hours\/\d+$/);

    const [row] = await api.deps.knex('business_hours').where({ workspaceId: ws.id });
    expect(row.days.sun.active).to.equal(false);
    expect(row.days.fri.active).to.equal(false);
    expect(row.days.mon.hours).to.deep.equal([{ startHourIndex: 76, endHourIndex: 96 }]);

    await recordLoaded;
    const name = page.getByLabel(/^Nome/);
    await name.fill('Semana');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Horário Semana atualizado');
    await page.goto('/settings/business-hours');
    await page.getByRole('row').filter({ hasText: 'Semana' }).waitFor();
  });

  it('creates a rule for a channel and a group, and toggles it from the list', async () => {
    const channel = await makeChannel(api.deps.knex, ws, 'widget', { description: 'Site' });
    const groupId = await makeGroup(api.deps.knex, ws, [owner.id]);
    const group = await api.deps.knex('groups').where({ id: groupId }).first('name');
    await logIn(page, owner);
    await page.goto('/settings/assignment-rules');
    await page.getByRole('link', { name: 'Nova regra' }).click();
    await page.waitForURL('**/settings/assignment-rules/new');
    await page.getByLabel(/^Nome/).fill('Suporte do site');
    await page.getByRole('combobox', { name: /^Canal/ }).click();
    await page.getByRole('option', { name: 'Site' }).click();
    await page.getByRole('combobox', { name: /^Grupo/ }).click();
    await page.getByRole('option', { name: group.name }).click();
    await page.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Regra criada/atualizada.');
    await page.waitForURL(/\/settings\/assignment-rules\/\d+$/);
    const [rule] = await api.deps.knex('assignment_rules').where({ workspaceId: ws.id });
    expect(rule).to.deep.include({ name: 'Suporte do site', isActive: true });
    expect(rule.rules).to.deep.include({ workspacePlatformId: channel.id, group: groupId });

    await page.goto('/settings/assignment-rules');
    const toggle = page.getByRole('switch', { name: 'Ativa: Suporte do site' });
    await toggle.uncheck();
    await toast(page, 'Regra criada/atualizada.');
    expect((await api.deps.knex('assignment_rules').where({ id: rule.id }).first('is_active')).isActive).to.equal(false);
  });
});
