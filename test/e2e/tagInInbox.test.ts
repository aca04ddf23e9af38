import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type { TestApi } from '../helpers/api';
import { useAppPage } from '../helpers/browser';
import { makeOperator, makeWorkspace, type TestOperator, type TestWorkspace } from '../helpers/factories';
import { receiveInbound } from '../../api/inbound/receiveInbound';
import { inboundMessage, makeChannel } from '../inbox/factories';
import { logIn, toast } from './support';

describe('e2e: a tag made in settings is used in the inbox (one session, no reload)', function () {
  this.timeout(120_000);
  let api: TestApi;
  let page: Page;
  let ws: TestWorkspace;
  let agent: TestOperator;

  useAppPage((s) => ({ api, page } = s));
  beforeEach(async () => {
    ws = await makeWorkspace(api.deps.knex);
    // Tags are open to every level (SPEC §6): an agent (3) does it all.
    agent = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 3, { name: 'Ana Agente' });
  });

  it('the inbox tags menu, already loaded, offers the new tag; applying it shows its chip and stores it on the call', async () => {
    const channel = await makeChannel(api.deps.knex, ws);
    const conv = await receiveInbound(api.deps, inboundMessage(channel, { identity: { externalId: 'lia', name: 'Lia Campos' }, content: [{ insert: 'Oi\n' }] }));
    await logIn(page, agent);
    await page.getByRole('option', { name: /Lia Campos/ }).click();
    await page.waitForURL(`**/inbox/all/${conv.conversationId}`);
    // The menus' reference lists are now cached: no tag yet.
    await page.getByTestId('tags-menu').click();
    await page.getByRole('menuitem', { name: 'Nenhuma etiqueta cadastrada' }).waitFor();
    await page.keyboard.press('Escape');

    // To settings and back through the app's links: the same page, the same caches.
    await page.getByRole('link', { name: 'Configurações' }).click();
    await page.getByRole('navigation', { name: 'Menu de configurações' }).getByRole('link', { name: 'Etiquetas' }).click();
    await page.waitForURL('**/settings/tags');
    await page.getByRole('button', { name: 'Nova etiqueta' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(/^Nome/).fill('Reclamação');
    await dialog.getByRole('radio', { name: 'Cor #FDE2E1' }).click();
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Etiqueta criada.');
    const label = await api.deps.knex('labels').where({ workspaceId: ws.id, name: 'Reclamação' }).first('id', 'color', 'text_color');
    expect(label).to.include({ color: '#FDE2E1' });

    await page.getByRole('link', { name: 'Mensagens' }).click();
    await page.getByRole('option', { name: /Lia Campos/ }).click();
    await page.waitForURL(`**/inbox/all/${conv.conversationId}`);
    await page.getByTestId('tags-menu').click();
    await page.getByRole('menuitemcheckbox', { name: 'Reclamação' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Reclamação', checked: true }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('tags-menu').filter({ hasText: '1' }).waitFor();
    for (let i = 0; i < 50 && (await api.deps.knex('call_labels').where({ callId: conv.callId })).length === 0; i++) await page.waitForTimeout(100);
    expect(await api.deps.knex('call_labels').where({ callId: conv.callId }).pluck('label_id')).to.deep.equal([label.id]);
  });

  it('an agent types a new name in the conversation’s tags menu, picks Criar "{nome}": the tag is created and applied; an existing name only filters', async () => {
    const channel = await makeChannel(api.deps.knex, ws);
    const [existing] = await api.deps.knex('labels').insert({ workspaceId: ws.id, name: 'Urgente', color: '#FDE2E1', textColor: '#B42318' }).returning('id');
    const conv = await receiveInbound(api.deps, inboundMessage(channel, { identity: { externalId: 'rui', name: 'Rui Prado' }, content: [{ insert: 'Oi\n' }] }));
    await logIn(page, agent);
    await page.getByRole('option', { name: /Rui Prado/ }).click();
    await page.waitForURL(`**/inbox/all/${conv.conversationId}`);

    await page.getByTestId('tags-menu').click();
    const field = page.getByLabel('Buscar ou criar etiqueta');
    // A name that exists (any case) filters to it and offers no creation.
    await field.fill('urg');
    await page.getByRole('menuitemcheckbox', { name: 'Urgente' }).waitFor();
    await field.fill('urgente');
    expect(await page.getByRole('menuitem', { name: /^Criar/ }).count()).to.equal(0);

    await field.fill('Troca de produto');
    expect(await page.getByRole('menuitemcheckbox').count()).to.equal(0);
    await page.getByRole('menuitem', { name: 'Criar "Troca de produto"' }).click();
    await toast(page, 'Etiqueta criada.');
    await page.getByRole('menuitemcheckbox', { name: 'Troca de produto', checked: true }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('tags-menu').filter({ hasText: '1' }).waitFor();

    const created = await api.deps.knex('labels').where({ workspaceId: ws.id, name: 'Troca de produto' }).first('id');
    expect(created, 'stored in this workspace').to.not.equal(undefined);
    for (let i = 0; i < 50 && (await api.deps.knex('call_labels').where({ callId: conv.callId })).length === 0; i++) await page.waitForTimeout(100);
    expect(await api.deps.knex('call_labels').where({ callId: conv.callId }).pluck('label_id')).to.deep.equal([created.id]);
    expect(await api.deps.knex('call_labels').where({ callId: conv.callId, labelId: existing.id }).first()).to.equal(undefined);
  });
});
