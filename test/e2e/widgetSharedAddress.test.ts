import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { closeBrowser, ensureUiBuilt, openPage, screenshotOnFailure, type BrowserSession } from '../helpers/browser';
import { signUp } from './support';
import { sourceRules } from '../../api/channels/widget/limits';

/** ui/dist/widget.js, built when missing or older than its sources. */
function ensureWidgetBuilt(): void {
  const bundle = path.resolve('ui/dist/widget.js');
  const sources = path.resolve('ui/widget');
  const newest = Math.max(...readdirSync(sources).map((f) => statSync(path.join(sources, f)).mtimeMs));
  if (existsSync(bundle) && statSync(bundle).mtimeMs >= newest) return;
  execFileSync(process.execPath, [path.resolve('node_modules/vite/bin/vite.js'), 'build', '--config', 'ui/widget/vite.config.ts', '--logLevel', 'warn'], { stdio: 'inherit' });
}

describe('e2e: widget visitor behind an address many others share (carrier-grade NAT)', function () {
  this.timeout(90_000);
  let api: TestApi;
  let visitor: BrowserSession | undefined;

  before(async () => {
    await ensureUiBuilt();
    ensureWidgetBuilt();
    api = await startTestApi();
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && visitor) {
      const file = await screenshotOnFailure(visitor.page, this.currentTest.fullTitle());
      console.log(`    screenshot: ${file}\n    browser errors: ${JSON.stringify(visitor.consoleErrors)}`);
    }
    await visitor?.close();
    visitor = undefined;
  });
  after(async () => {
    await closeBrowser();
    await api.close();
  });

  it('past the address’s free first contacts the widget is asked for the challenge, solves it, and the visitor’s first message gets through', async () => {
    const account = await signUp(api);
    const login = await api.request('POST', '/api/operators/login', { body: { email: account.email, password: account.password } });
    const token = login.body.data.workspace.token as string;
    const made = await api.request('POST', '/api/integrations/widget', { token, body: { description: 'Site', avatar: '#F79009' } });
    const { id, identifier } = made.body.data as { id: number; identifier: string };
    // As if ten other people on the browser's address had just started conversations (whichever way the
    // socket names loopback).
    for (const ip of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const { free } = sourceRules(ip);
      for (let i = 0; i < free[0]!.limit; i++) await api.deps.rateLimiter.take([free[0]!]);
    }

    visitor = await openPage(api.url);
    const v = visitor.page;
    const answers: { status: number; challenge: string | null }[] = [];
    v.on('response', (r) => {
      if (r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/v1/widget/messages') answers.push({ status: r.status(), challenge: r.headers()['balcao-challenge'] ?? null });
    });
    await v.goto(`/widget?workspacePlatformIdentifier=${identifier}`);
    const chat = v.getByRole('dialog', { name: account.workspace });
    const input = chat.getByRole('textbox', { name: 'Digite sua mensagem…' });
    await input.fill('Oi, vocês entregam em Recife?');
    await input.press('Enter');
    await chat.locator('li.msg.mine .meta', { hasText: /^\d{2}:\d{2}$/ }).waitFor({ timeout: 30_000 });
    expect(answers.map((a) => a.status), 'asked for the challenge, then let in with its solution').to.deep.equal([429, 201]);
    expect(answers[0]!.challenge).to.be.a('string');
    const conversation = await api.deps.knex('customer_platforms').where({ channelId: id }).first('id');
    const texts = (await api.deps.knex('messages').where({ customerPlatformId: conversation.id }).pluck('text')) as string[];
    expect(texts).to.deep.equal(['Oi, vocês entregam em Recife?']);
    expect(visitor.consoleErrors.filter((e) => !/status of 429/.test(e))).to.deep.equal([]);
  });
});
