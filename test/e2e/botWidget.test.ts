import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { bundleWorkflowCode, DefaultLogger, Worker, type NativeConnection, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { createLogger } from '../../api/logger';
import { startTestApi, type TestApi } from '../helpers/api';
import { closeBrowser, ensureUiBuilt, openPage, screenshotOnFailure, type BrowserSession } from '../helpers/browser';
import { makeOperator, makeWorkspace, unique, type TestOperator } from '../helpers/factories';
import { testNativeConnection } from '../helpers/temporal';
import { makeChannel, makeGroup, type TestChannel } from '../inbox/factories';
import { switchOn, toast } from './support';
import { buildMenuBot } from './botSupport';

const workflowsPath = fileURLToPath(new URL('../../workflows/index.ts', import.meta.url));

/** ui/dist/widget.js, built when missing or older than its sources (the app's build empties ui/dist). */
function ensureWidgetBuilt(): void {
  const bundle = path.resolve('ui/dist/widget.js');
  const sources = path.resolve('ui/widget');
  const newest = Math.max(...readdirSync(sources).map((f) => statSync(path.join(sources, f)).mtimeMs));
  if (existsSync(bundle) && statSync(bundle).mtimeMs >= newest) return;
  execFileSync(process.execPath, [path.resolve('node_modules/vite/bin/vite.js'), 'build', '--config', 'ui/widget/vite.config.ts', '--logLevel', 'warn'], { stdio: 'inherit' });
}

/**
 * The whole story in two browsers and a real Temporal worker: the admin draws the bot in the editor
 * and activates it for the widget channel from the list; a visitor on /widget walks the menu (a wrong
 * answer gets the invalid-option text) and is handed off to a group; the agent sees the bot's messages and
 * the assignment arrive live in the inbox.
 */
describe('e2e: a bot drawn in the editor talks to a widget visitor', function () {
  this.timeout(180_000);
  let api: TestApi;
  let connection: NativeConnection;
  let bundle: WorkflowBundleWithSourceMap;
  let worker: Worker;
  let running: Promise<void>;
  let admin: BrowserSession;
  let visitor: BrowserSession | undefined;
  let page: Page;
  let owner: TestOperator;
  let channel: TestChannel;
  let company: string;
  let groupName: string;

  before(async () => {
    await ensureUiBuilt();
    ensureWidgetBuilt();
    [api, connection, bundle] = await Promise.all([
      startTestApi({ temporalTaskQueue: unique('bot-e2e') }),
      testNativeConnection(),
      bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('WARN') }),
    ]);
    worker = await Worker.create({
      connection,
      taskQueue: api.config.temporalTaskQueue,
      workflowBundle: bundle,
      activities: createActivities({ knex: api.deps.knex, publisher: api.deps.publisher, logger: createLogger('silent'), config: api.config }),
    });
    running = worker.run();
  });
  beforeEach(async () => {
    company = `Loja ${Date.now()}`;
    const ws = await makeWorkspace(api.deps.knex, company);
    owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10, { name: 'Olga Dona' });
    channel = await makeChannel(api.deps.knex, ws, 'widget', { name: 'Site', description: 'Chat do site', avatar: '#1570EF' });
    const groupId = await makeGroup(api.deps.knex, ws, [owner.id]);
    groupName = (await api.deps.knex('groups').where({ id: groupId }).first('name')).name;
    admin = await openPage(api.url);
    page = admin.page;
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      for (const [who, session] of [['admin', admin], ['visitor', visitor]] as const) {
        if (!session) continue;
        const file = await screenshotOnFailure(session.page, `${who} ${this.currentTest.fullTitle()}`);
        console.log(`    ${who} screenshot: ${file}\n    ${who} browser errors: ${JSON.stringify(session.consoleErrors)}`);
      }
    }
    await visitor?.close();
    visitor = undefined;
    await admin.close();
  });
  after(async () => {
    worker?.shutdown();
    await running;
    await connection?.close();
    await api?.close();
    await closeBrowser();
  });

  it('menu, invalid option, hand-off to a group, all live in the inbox', async () => {
    await buildMenuBot(page, { owner, channel: 'Chat do site', groupName });
    await page.getByRole('button', { name: 'Salvar', exact: true }).click();
    await toast(page, 'Bot criado');
    await page.waitForURL(/\/settings\/bot\/\d+$/);
    await page.goto('/settings/bot');
    await switchOn(page.getByRole('switch', { name: 'Ativo: Atendimento Site' }));
    await toast(page, 'Bot atualizado');
    const bot = await api.deps.knex('bots').where({ workspaceId: channel.workspaceId, name: 'Atendimento Site' }).first();
    expect(bot.isActive).to.equal(true);
    expect(bot.definition.channels).to.deep.equal([channel.id]);

    await page.goto('/inbox/all');
    await page.locator('[data-testid="live-indicator"][data-status="online"]').waitFor();

    visitor = await openPage(api.config.publicUrl);
    const v = visitor.page;
    await v.goto(`/widget?workspacePlatformIdentifier=${channel.identifier}`);
    const chat = v.getByRole('dialog', { name: company });
    await chat.getByText('Fale conosco').waitFor();
    const input = chat.getByRole('textbox', { name: 'Digite sua mensagem…' });
    const say = async (text: string) => {
      await input.fill(text);
      await input.press('Enter');
      await chat.locator('li.msg.mine', { hasText: text }).last().waitFor();
    };
    const fromBot = (text: string) => chat.locator('li.msg:not(.mine)', { hasText: text });

    await say('Oi');
    await fromBot('Olá! Como podemos ajudar?').waitFor({ timeout: 20_000 });
    await fromBot('Escolha uma opção:').waitFor();
    expect(await fromBot('Escolha uma opção:').textContent()).to.contain('1 - Vendas').and.to.contain('2 - Atendente');

    // A wrong answer: the menu's invalid-option text (SPEC §9 default), and the bot keeps waiting.
    await say('7');
    await fromBot('Não existe essa opção, tente novamente!').waitFor({ timeout: 20_000 });

    // The agent sees the conversation and the bot's messages live, while the bot still runs it.
    const row = page.getByRole('option').filter({ hasText: 'Não existe essa opção' });
    await row.waitFor({ timeout: 20_000 });
    await row.click();
    const log = page.getByRole('log', { name: 'Mensagens da conversa' });
    await log.getByText('Olá! Como podemos ajudar?').waitFor();
    await log.getByText('Não existe essa opção, tente novamente!').waitFor();
    expect(await page.getByTestId('group-menu').textContent()).to.not.contain(groupName);

    // '2' picks 'Atendente' → the Humano path hands off to the group.
    await say('2');
    await fromBot('Um momento, vou te transferir.').waitFor({ timeout: 20_000 });
    await log.getByText('Um momento, vou te transferir.').waitFor({ timeout: 20_000 });
    await page.getByTestId('group-menu').filter({ hasText: groupName }).waitFor({ timeout: 20_000 });

    const conversation = await api.deps.knex('customer_platforms').where({ channelId: channel.id }).first();
    expect(conversation.groupId).to.equal((await api.deps.knex('groups').where({ name: groupName }).first('id')).id);
    const texts = (await api.deps.knex('messages').where({ customerPlatformId: conversation.id }).orderBy('id').select('type', 'content')).map((m: { type: number }) => m.type);
    expect(texts.filter((type: number) => type === 3).length, 'bot messages are type BOT (3)').to.be.at.least(4);
    expect(visitor.consoleErrors).to.deep.equal([]);
  });
});
