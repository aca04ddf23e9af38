import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type { TestApi } from '../helpers/api';
import { openPage } from '../helpers/browser';
import { makeOperator, unique, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { receiveInbound } from '../../api/inbound/receiveInbound';
import { inboundMessage, makeChannel } from '../inbox/factories';
import { logIn, pathOf, toast, useOwnerPage } from './support';

describe('e2e: workspace team settings (members, groups, tags, quick phrases)', function () {
  this.timeout(120_000);
  let api: TestApi;
  let page: Page;
  let ws: TestWorkspace;
  let owner: TestOperator;

  useOwnerPage((s) => ({ api, page, ws, owner } = s));

  const dialog = () => page.getByRole('dialog');
  const row = (text: string) => page.getByRole('row').filter({ hasText: text });

  it('refuses a 6th active agent on a 5-agent plan with the limit named and a way to Assinatura', async () => {
    await api.deps.knex('subscriptions').insert({ workspaceId: ws.id, license: 'business', status: 'active', agents: 5, numbers: 1, instagramUnits: 0, campaignUnits: 0, months: 1, total: 44_900, expiresAt: new Date(Date.now() + 20 * 86_400_000) });
    for (let i = 1; i <= 4; i++) await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3, { name: `Agente ${i}` });
    await logIn(page, owner);
    await page.goto('/settings/members/new');
    await dialog().getByLabel(/^Nome/).fill('Sexta Pessoa');
    await dialog().getByLabel(/^E-mail/).fill(`${unique('sexta')}@exemplo.com.br`.toLowerCase());
    await dialog().getByLabel(/^Nível de acesso/).click();
    await page.getByRole('option', { name: 'Agente', exact: true }).click();
    await dialog().getByRole('button', { name: 'Salvar' }).click();
    const refusal = page.getByTestId('plan-limit-toast');
    await refusal.waitFor();
    expect(await refusal.innerText()).to.contain('Seu plano permite 5 agentes ativos e o limite foi atingido.');
    // The toast sits above the open dialog (which hides the rest of the page from the accessibility tree).
    await refusal.locator('a', { hasText: 'Assinatura' }).click();
    await page.waitForURL('**/settings/billing/license');
    expect(await api.deps.knex('operators').where({ name: 'Sexta Pessoa' }).count({ n: '*' }).first().then((r) => Number(r?.n))).to.equal(0);
  });

  it('invites an agent who registers from the mailed link, and puts the agent in a new group', async () => {
    const email = `${unique('bia')}@exemplo.com.br`.toLowerCase();
    await logIn(page, owner);
    await page.goto('/settings/account/profile');
    await page.getByRole('link', { name: 'Agentes' }).click();
    await page.waitForURL('**/settings/members');
    await row('Olga Dona').waitFor();

    await page.getByRole('button', { name: 'Convidar' }).click();
    await page.waitForURL('**/settings/members/new');
    await dialog().getByRole('button', { name: 'Salvar' }).click();
    expect(await dialog().getByLabel(/^Nome/).getAttribute('aria-invalid')).to.equal('true');
    await dialog().getByLabel(/^Nome/).fill('Bia Lima');
    await dialog().getByLabel(/^E-mail/).fill(owner.email);
    await dialog().getByLabel(/^Nível de acesso/).click();
    // Owner is never offered (SPEC §5).
    expect(await page.getByRole('option', { name: 'Proprietário' }).count()).to.equal(0);
    await page.getByRole('option', { name: 'Agente', exact: true }).click();
    // The server's refusal lands on the e-mail field (SPEC §5 ValidationError mapping).
    await dialog().getByRole('button', { name: 'Salvar' }).click();
    await dialog().locator('#field-email[aria-invalid="true"]').waitFor();
    await dialog().getByLabel(/^E-mail/).fill(email);
    await dialog().getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Usuário convidado');
    await page.waitForURL('**/settings/members');
    await row('Bia Lima').getByText('Aguardando conclusão do cadastro').waitFor();

    // The invited agent follows the link in another browser and completes the registration.
    const mail = await api.mailbox.waitFor(email, (m) => Boolean(m.link?.includes('/user/join/register')));
    const invitee = await openPage(api.url);
    try {
      await invitee.page.goto(pathOf(mail.link));
      await invitee.page.getByLabel(/^Senha/).fill('segredo123');
      await invitee.page.getByRole('button', { name: 'Concluir cadastro' }).click();
      await invitee.page.waitForURL('**/user/join/register/success');
    } finally {
      await invitee.close();
    }
    await page.reload();
    await row('Bia Lima').getByText('Cadastro concluído').waitFor();

    // The owner cannot edit itself; Bia's detail is editable.
    await row('Olga Dona').click();
    await dialog().getByText('Você não pode alterar a si mesmo').waitFor();
    expect(await dialog().getByRole('button', { name: 'Salvar' }).isDisabled()).to.equal(true);
    await dialog().getByRole('button', { name: 'Cancelar' }).click();
    await page.waitForURL('**/settings/members');
    await row('Bia Lima').click();
    await page.waitForURL(/\/settings\/members\/\d+$/);
    await dialog().getByLabel('Ativo').uncheck();
    await dialog().getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Usuário atualizado');
    await row('Bia Lima').getByRole('cell', { name: 'Não', exact: true }).waitFor();

    // A group with that agent.
    await page.getByRole('link', { name: 'Grupos' }).click();
    await page.waitForURL('**/settings/groups');
    await page.getByText('Nenhum grupo ainda.').waitFor();
    await page.getByRole('button', { name: 'Novo grupo' }).click();
    await dialog().getByLabel(/^Nome/).fill('Suporte');
    await dialog().getByLabel('Agentes').click();
    await page.getByRole('option', { name: 'Bia Lima' }).click();
    await dialog().getByRole('button', { name: 'Bia Lima' }).waitFor();
    await dialog().getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Grupo salvo');
    await row('Suporte').waitFor();
    const bia = await api.deps.knex('operators').where({ email }).first('id');
    const groupMembers = await api.deps.knex('group_members').join('groups', 'groups.id', 'group_members.group_id').where('groups.name', 'Suporte').pluck('group_members.operator_id');
    expect(groupMembers).to.deep.equal([bia.id]);

    // Deleting asks for confirmation first.
    await row('Suporte').click();
    await dialog().getByRole('button', { name: 'Excluir' }).click();
    await page.getByText('Esta ação é permanente e não pode ser desfeita.').waitFor();
    await page.getByRole('dialog').filter({ hasText: 'Esta ação é permanente' }).getByRole('button', { name: 'Excluir' }).click();
    await toast(page, 'Excluído com sucesso.');
    await page.getByText('Nenhum grupo ainda.').waitFor();
  });

  it('creates a tag that the inbox tags menu offers, and a quick phrase with a normalised tag', async () => {
    const channel = await makeChannel(api.deps.knex, ws);
    const conv = await receiveInbound(api.deps, inboundMessage(channel, { identity: { externalId: 'lia', name: 'Lia Campos' } }));
    await logIn(page, owner);
    await page.goto('/settings/tags');
    await page.getByText('Nenhuma etiqueta ainda.').waitFor();
    await page.getByRole('button', { name: 'Nova etiqueta' }).click();
    await page.waitForURL('**/settings/tags/new');
    await dialog().getByRole('button', { name: 'Salvar' }).click();
    expect(await dialog().getByLabel(/^Nome/).getAttribute('aria-invalid')).to.equal('true');
    await dialog().getByLabel(/^Nome/).fill('Prioridade');
    await dialog().getByRole('radio', { name: 'Cor #D1E9FF' }).click();
    await dialog().getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Etiqueta criada.');
    await page.waitForURL('**/settings/tags');
    const label = await api.deps.knex('labels').where({ workspaceId: ws.id, name: 'Prioridade' }).first('color', 'text_color');
    expect(label).to.deep.equal({ color: '#D1E9FF', textColor: '#175CD3' });

    await page.goto(`/inbox/all/${conv.conversationId}`);
    await page.getByTestId('tags-menu').click();
    await page.getByRole('menuitemcheckbox', { name: 'Prioridade' }).waitFor();
    await page.keyboard.press('Escape');

    await page.goto('/settings/quick-phrases');
    await page.getByRole('button', { name: 'Nova frase' }).click();
    await dialog().getByLabel(/^Atalho/).pressSequentially('boas vindas/');
    expect(await dialog().getByLabel(/^Atalho/).inputValue()).to.equal('/boas_vindas');
    const phrase = 'Olá! Obrigado por falar com a gente, em que podemos ajudar hoje?';
    await dialog().getByLabel(/^Frase/).fill(phrase);
    await dialog().getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Frase criada.');
    // SPEC §9: the phrase is truncated at 45 in the table.
    await row('/boas_vindas').getByText(`${phrase.slice(0, 45)}…`).waitFor();
    await row('/boas_vindas').click();
    await dialog().getByLabel(/^Frase/).fill('Bom dia!');
    await dialog().getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Frase atualizada.');
    await row('Bom dia!').click();
    await dialog().getByRole('button', { name: 'Excluir' }).click();
    await page.getByRole('dialog').filter({ hasText: 'Esta ação é permanente' }).getByRole('button', { name: 'Excluir' }).click();
    await toast(page, 'Frase excluída.');
    await page.getByText('Nenhuma frase rápida ainda.').waitFor();
  });

  it('level 3 sees no Agentes/Grupos menu and manages tags', async () => {
    const agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3);
    await logIn(page, agent);
    await page.goto('/settings/tags');
    const menu = page.getByRole('navigation', { name: /./ }).filter({ has: page.getByRole('link', { name: 'Etiquetas' }) });
    await menu.getByRole('link', { name: 'Frases Rápidas' }).waitFor();
    expect(await menu.getByRole('link', { name: 'Agentes' }).count()).to.equal(0);
    expect(await menu.getByRole('link', { name: 'Grupos' }).count()).to.equal(0);
    await page.getByRole('button', { name: 'Nova etiqueta' }).click();
    await dialog().getByLabel(/^Nome/).fill('Retorno');
    await dialog().getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Etiqueta criada.');
    await row('Retorno').click();
    await dialog().getByLabel(/^Nome/).fill('Retornar');
    await dialog().getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Etiqueta atualizada.');
    await row('Retornar').click();
    await dialog().getByRole('button', { name: 'Excluir' }).click();
    await page.getByRole('dialog').filter({ hasText: 'Esta ação é permanente' }).getByRole('button', { name: 'Excluir' }).click();
    await toast(page, 'Etiqueta excluída.');

    await page.goto('/settings/members');
    await page.getByText('Você não tem permissão para acessar esta página.').waitFor();
  });
});
