import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type { TestApi } from '../helpers/api';
import { useAppPage } from '../helpers/browser';
import { logIn, newAccount, pathOf, sessionKeys, signUp, toast } from './support';

describe('e2e: account flows in the browser', function () {
  this.timeout(60_000);
  let api: TestApi;
  let page: Page;

  useAppPage((s) => ({ api, page } = s));

  it('registers from the landing page, plays the creating screen and lands in the inbox shell', async () => {
    const account = newAccount();
    await page.goto('/');
    await page.getByLabel('Seu e-mail de trabalho').fill(account.email);
    await page.getByRole('button', { name: 'Começar teste grátis' }).click();
    await page.waitForURL('**/user/register?email=*');
    expect(await page.getByLabel('E-mail de trabalho').inputValue()).to.equal(account.email);

    await page.getByLabel('Seu nome').fill(account.name);
    await page.getByLabel('Nome da empresa').fill(account.workspace);
    await page.getByLabel('Senha').fill(account.password);
    const submit = page.getByRole('button', { name: 'Criar conta' });
    expect(await submit.isDisabled(), 'submit is enabled before the terms are accepted').to.equal(true);
    await page.getByLabel(/aceito os termos/).check();
    expect(await submit.isEnabled()).to.equal(true);
    await submit.click();

    await page.waitForURL('**/user/register/creating');
    await page.getByRole('heading', { name: 'Criando seu workspace' }).waitFor();
    // The session is stored only when the animation ends, then the inbox opens.
    expect(await sessionKeys(page)).to.deep.equal([]);
    await page.waitForURL('**/inbox/all', { timeout: 10_000 });

    await page.getByRole('navigation', { name: 'Navegação principal' }).getByRole('link', { name: 'Mensagens' }).waitFor();
    await page.getByText('Sem conversas').waitFor();
    // A new workspace has no channel yet: the first run says what to do first (test/e2e/firstRun.test.ts).
    await page.getByRole('heading', { name: 'Comece pelo chat do seu site' }).waitFor();
    expect(await page.getByTestId('current-workspace').innerText()).to.equal(account.workspace);
    // A brand-new account has not confirmed its e-mail yet.
    await page.getByRole('button', { name: 'Reenviar e-mail' }).waitFor();
    expect(await sessionKeys(page)).to.include.members(['balcao.user', 'balcao.workspace']);
  });

  it('resends the confirmation mail from the banner, and the mailed link confirms the e-mail while logged in', async () => {
    const account = await signUp(api);
    await logIn(page, account);
    await api.mailbox.waitFor(account.email, (m) => Boolean(m.link?.includes('/user/email-confirm')));
    const before = api.mailbox.mails.length;

    await page.getByRole('button', { name: 'Reenviar e-mail' }).click();
    await toast(page, 'O e-mail foi reenviado, por favor cheque sua caixa de entrada');
    const resent = await api.mailbox.waitFor(account.email, (m) => api.mailbox.mails.indexOf(m) >= before && Boolean(m.link?.includes('/user/email-confirm')));

    await page.goto(pathOf(resent.link));
    await page.getByRole('heading', { name: 'E-mail confirmado!' }).waitFor();
    await page.getByRole('link', { name: 'Ok' }).click();
    await page.waitForURL('**/inbox/all');
    await page.getByText('Sem conversas').waitFor();
    expect(await page.getByRole('button', { name: 'Reenviar e-mail' }).count()).to.equal(0);
  });

  it('logs out through the user menu: local data cleared, back at login, app routes closed', async () => {
    const account = await signUp(api);
    await logIn(page, account);

    await page.getByRole('button', { name: 'Abrir menu do usuário' }).click();
    await page.getByRole('menuitem', { name: 'Sair' }).click();
    await page.waitForURL('**/user/login');
    expect(await sessionKeys(page)).to.deep.equal([]);

    await page.goto('/inbox/all');
    await page.waitForURL('**/user/login');
    await page.getByRole('heading', { name: 'Entrar no Balcão' }).waitFor();
  });

  it('a typed /login (or /signup) reaches the login (or register) page, and logging in there opens the inbox, not a 404', async () => {
    const account = await signUp(api);
    await page.goto('/signup');
    await page.waitForURL('**/user/register');
    await page.goto('/login');
    await page.waitForURL('**/user/login');
    // Not the register form still on screen ('E-mail de trabalho' matches 'E-mail' too).
    await page.getByRole('heading', { name: 'Entrar no Balcão' }).waitFor();
    await page.getByLabel('E-mail').fill(account.email);
    await page.getByLabel('Senha').fill(account.password);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL('**/inbox/all');
    expect(await page.getByText('Página não encontrada.').count()).to.equal(0);
  });

  it('shows the server error on a wrong password and stays on the login page', async () => {
    const account = await signUp(api);
    await page.goto('/user/login');
    await page.getByLabel('E-mail').fill(account.email);
    await page.getByLabel('Senha').fill('senha-errada');
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/operators/login'));
    await page.getByRole('button', { name: 'Entrar' }).click();
    const res = await answer;
    expect(res.status()).to.equal(401);
    const description = ((await res.json()) as { errors: { descriptions: string[] }[] }).errors[0]!.descriptions[0]!;

    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).to.contain(description);
    expect(new URL(page.url()).pathname).to.equal('/user/login');
    expect(await sessionKeys(page)).to.deep.equal([]);
  });

  it('resets a forgotten password through the mailed link and logs in with the new one', async () => {
    const account = await signUp(api);
    await page.goto('/user/login');
    await page.getByRole('link', { name: 'Esqueceu sua senha?' }).click();
    await page.waitForURL('**/user/forgot');
    // The URL changes before the new route is drawn (react-router navigates in a transition): on a slow
    // machine the login form, whose field is also 'E-mail', took the fill and the forgot form came up empty.
    await page.getByRole('heading', { name: 'Esqueceu sua senha?' }).waitFor();
    await page.getByLabel('E-mail').fill(account.email);
    await page.getByRole('button', { name: 'Enviar link' }).click();
    await page.waitForURL('**/user/forgot/sent');

    const mail = await api.mailbox.waitFor(account.email, (m) => Boolean(m.link?.includes('/user/reset')));
    await page.goto(pathOf(mail.link));
    await page.getByLabel(/^Nova senha/).fill('nova-senha-1');
    await page.getByLabel('Confirme a nova senha').fill('nova-senha-2');
    await page.getByRole('button', { name: 'Salvar nova senha' }).click();
    await page.getByText('Suas senhas estão diferentes').waitFor();

    await page.getByLabel('Confirme a nova senha').fill('nova-senha-1');
    await page.getByRole('button', { name: 'Salvar nova senha' }).click();
    await page.waitForURL('**/user/reset/success');
    await page.getByRole('heading', { name: 'Senha resetada' }).waitFor();
    await page.getByText('Você já pode se logar usando sua nova senha!').waitFor();
    await page.getByRole('link', { name: 'Ok' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    // `/` is the public site, which the SPA hands to the server (ui/src/public/ServerPage.tsx): wait for that
    // document, or logIn's navigation races the reload and is aborted (CI: net::ERR_ABORTED).
    await page.getByRole('heading', { level: 1, name: 'Todos os seus canais de atendimento em uma só caixa de entrada' }).waitFor();

    await logIn(page, { email: account.email, password: 'nova-senha-1' });
    expect(await page.getByTestId('current-workspace').innerText()).to.equal(account.workspace);
  });
});
