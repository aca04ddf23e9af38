import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';
import type { TestOperator } from '../helpers/factories';
import { logIn } from './support';

/** Browser steps shared by the bot e2e files (botEditor, botWidget). */

/** Drags with the mouse between two elements' centres, in steps (React Flow follows mouse moves). */
export async function dragBetween(page: Page, from: Locator, to: Locator): Promise<void> {
  const a = (await from.boundingBox())!;
  const b = (await to.boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 12 });
  await page.mouse.up();
}

export async function choose(page: Page, select: Locator, option: string): Promise<void> {
  await select.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

export const node = (page: Page, name: string) => page.locator('.react-flow__node', { has: page.getByTestId(`path-node-${name}`) });

export function pathnameOf(page: Page): string {
  return new URL(page.url()).pathname;
}

async function addPath(page: Page, name: string) {
  await page.getByRole('link', { name: 'Novo caminho' }).click();
  await page.getByLabel(/^Nome do caminho/).fill(name);
  await page.getByRole('dialog').getByRole('button', { name: 'Salvar' }).click();
  await page.getByRole('complementary', { name }).waitFor();
}

/** Builds: Início = message + menu (Vendas → Vendas, Atendente → Humano by a canvas connection); Vendas = message; Humano = hand-off to the group. */
export async function buildMenuBot(page: Page, { owner, channel, groupName }: { owner: TestOperator; channel: string; groupName: string }): Promise<void> {
  await logIn(page, owner);
  await page.goto('/settings/bot');
  await page.getByRole('link', { name: 'Novo' }).click();
  await page.waitForURL('**/settings/bot/new');
  await page.getByTestId('bot-title').filter({ hasText: 'Bot' }).waitFor();

  await page.locator('#main-content').getByRole('link', { name: 'Configurações' }).click();
  await page.waitForURL('**/settings/bot/new/configuration');
  await page.getByLabel(/^Nome/).fill('Atendimento Site');
  await page.getByLabel(/^Prioridade/).fill('7');
  await page.getByRole('combobox', { name: 'Canais' }).click();
  await page.getByRole('option', { name: channel }).click();
  await page.getByRole('button', { name: 'Aplicar' }).click();
  await page.getByTestId('bot-title').filter({ hasText: 'Atendimento Site' }).waitFor();

  await addPath(page, 'Início');
  await addPath(page, 'Vendas');
  await addPath(page, 'Humano');

  // Início: a message, then the menu; after the menu nothing more can be added (SPEC §5).
  await page.getByRole('navigation', { name: 'Caminhos' }).getByText('1. Início').click();
  const panel = page.getByRole('complementary', { name: 'Início' });
  await panel.getByRole('link', { name: 'Mensagem' }).click();
  expect(pathnameOf(page)).to.match(/\/settings\/bot\/new\/path\/[0-9a-f-]{36}\/message\/new$/);
  await page.getByRole('button', { name: 'Aplicar' }).click();
  await page.getByRole('dialog').getByText('O texto é obrigatório.').waitFor();
  await page.getByLabel(/^Texto/).fill('Olá! Como podemos ajudar?');
  await page.getByRole('button', { name: 'Aplicar' }).click();
  await panel.getByRole('link', { name: 'Menu' }).click();
  await page.getByLabel(/^Texto/).fill('Escolha uma opção:');
  await page.locator('#action-option-0-name').fill('Vendas');
  await choose(page, page.locator('#action-option-0-goto'), 'Vendas');
  await page.getByRole('button', { name: 'Adicionar opção' }).click();
  await page.locator('#action-option-1-name').fill('Atendente');
  await page.getByRole('button', { name: 'Aplicar' }).click();
  await panel.getByText('Este caminho termina com uma ação final: nenhuma ação pode vir depois dela.').waitFor();
  expect(await panel.getByRole('link', { name: 'Mensagem' }).count()).to.equal(0);

  await page.getByRole('navigation', { name: 'Caminhos' }).getByText('2. Vendas').click();
  await page.getByRole('complementary', { name: 'Vendas' }).getByRole('link', { name: 'Mensagem' }).click();
  await page.getByLabel(/^Texto/).fill('Nossos planos começam em R$ 49.');
  await page.getByRole('button', { name: 'Aplicar' }).click();

  await page.getByRole('navigation', { name: 'Caminhos' }).getByText('3. Humano').click();
  await page.getByRole('complementary', { name: 'Humano' }).getByRole('link', { name: 'Transferir para atendimento' }).click();
  await choose(page, page.getByRole('combobox', { name: /^Destino/ }), groupName);
  await page.getByLabel(/^Texto/).fill('Um momento, vou te transferir.');
  await page.getByRole('button', { name: 'Aplicar' }).click();
  await page.getByRole('complementary', { name: 'Humano' }).getByRole('button', { name: 'Fechar' }).click();

  // The second option is connected on the canvas: option handle → Humano's entry.
  const option = page.getByTestId(/^jump-option:/).nth(1).locator('.react-flow__handle');
  await dragBetween(page, option, node(page, 'Humano').locator('.react-flow__handle.target'));
  await page.locator('.react-flow__edge').nth(1).waitFor();
  expect(await page.locator('.react-flow__edge').count()).to.equal(2);
  await node(page, 'Início').getByText('2. Atendente → Humano').waitFor();
}
