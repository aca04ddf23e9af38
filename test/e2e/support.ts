import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';
import type { TestApi } from '../helpers/api';
import { useAppPage } from '../helpers/browser';
import { makeOperator, makeWorkspace, unique, type TestOperator, type TestWorkspace } from '../helpers/factories';

export interface Account {
  name: string;
  workspace: string;
  email: string;
  password: string;
}

export function newAccount(): Account {
  return { name: 'Ana Souza', workspace: unique('Acme'), email: `${unique('ana')}@exemplo.com.br`.toLowerCase(), password: 'segredo123' };
}

/** An account made through the real signup call (workspace, trial subscription, confirmation mail). */
export async function signUp(api: TestApi, account: Account = newAccount()): Promise<Account> {
  const res = await api.request('POST', '/api/signup', {
    body: { name: account.name, workspace: account.workspace, email: account.email, password: account.password, acceptTerms: true },
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return account;
}

/** Signs up through the page: /user/register filled with the account, terms accepted, sent. */
export async function signUpInPage(page: Page, account: Account): Promise<void> {
  await page.goto('/user/register');
  await page.getByLabel('Seu nome').fill(account.name);
  await page.getByLabel('Nome da empresa').fill(account.workspace);
  await page.getByLabel('E-mail de trabalho').fill(account.email);
  await page.getByLabel('Senha').fill(account.password);
  await page.getByLabel(/aceito os termos/).check();
  await page.getByRole('button', { name: 'Criar conta' }).click();
}

/** Logs in through /user/login; with `live`, also waits until the realtime connection is up (the header's live indicator). */
export async function logIn(page: Page, account: Pick<Account, 'email' | 'password'>, options: { live?: boolean } = {}): Promise<void> {
  await page.goto('/user/login');
  await page.getByLabel('E-mail').fill(account.email);
  await page.getByLabel('Senha').fill(account.password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL('**/inbox/all');
  if (options.live) await page.locator('[data-testid="live-indicator"][data-status="online"]').waitFor();
}

/** A mailed link points at PUBLIC_URL; the browser follows its path on the test server. */
export function pathOf(link: string | undefined): string {
  expect(link, 'mail without a link').to.be.a('string');
  const url = new URL(link!);
  return `${url.pathname}${url.search}`;
}

export async function sessionKeys(page: Page): Promise<string[]> {
  // Runs in the page (the test tsconfig has no DOM types, hence the string).
  return page.evaluate<string[]>("Object.keys(localStorage).filter((k) => k.startsWith('balcao.') || k.startsWith('RaStore'))");
}

/** Waits for a toast (react-admin notification) with exactly this text. */
export async function toast(page: Page, text: string): Promise<void> {
  await page.locator('.MuiSnackbar-root', { hasText: text }).first().waitFor({ state: 'visible' });
}

/**
 * Turns on a switch whose state comes from the server's data (react-query): its checked state follows a
 * cache update a moment after the click, so Playwright's check() — which reads the state right after its
 * click — fails on a busy machine. Clicks once, then waits for the state.
 */
export async function switchOn(control: Locator): Promise<void> {
  if (!(await control.isChecked())) await control.click();
  for (const until = Date.now() + 15_000; !(await control.isChecked()); ) {
    if (Date.now() > until) throw new Error('the switch did not turn on');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * What stands past the right edge of the viewport, outside any box that scrolls or clips sideways: on a phone
 * that is what a person cannot reach. Each as `tag "its text"`; empty when the page fits.
 */
export function cutOff(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {
    const width = window.innerWidth;
    const inScrollBox = (el) => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const style = getComputedStyle(p);
        if (['auto', 'scroll', 'hidden'].includes(style.overflowX) && p.getBoundingClientRect().right <= width + 1) return true;
      }
      return false;
    };
    return [...document.querySelectorAll('body *')]
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.height > 0 && r.right > width + 1 && r.left < width && !inScrollBox(el);
      })
      .map((el) => el.tagName.toLowerCase() + ' "' + (el.textContent || '').trim().slice(0, 40) + '"');
  })()`);
}

/** The two screens a page is checked on: a desktop and a phone (390 × 844). */
export const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;
export type Viewport = (typeof VIEWPORTS)[number];

export interface OwnerPage {
  api: TestApi;
  page: Page;
  ws: TestWorkspace;
  owner: TestOperator;
}

/**
 * useAppPage, then before each test a new workspace and its owner 'Olga Dona' (level 10), and the page at
 * `viewport` when one is given.
 */
export function useOwnerPage(set: (s: OwnerPage) => void, viewport?: { width: number; height: number }): void {
  let api: TestApi;
  let page: Page;
  useAppPage((s) => ({ api, page } = s));
  beforeEach(async () => {
    const ws = await makeWorkspace(api.deps.knex);
    const owner = await makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10, { name: 'Olga Dona' });
    if (viewport) await page.setViewportSize({ width: viewport.width, height: viewport.height });
    set({ api, page, ws, owner });
  });
}

/**
 * The usual frame of a page checked on both screens: one describe per VIEWPORTS entry, titled
 * `title (desktop 1280 × 800)`…, with the browser tests' timeout and useOwnerPage at that viewport. `body`
 * gets the frame: its fields are the running test's app, page, workspace and owner, so read them inside a
 * test or a hook, not while the describe is built.
 */
export function describeOwnerPage(title: string, body: (s: OwnerPage, viewport: Viewport) => void): void {
  for (const viewport of VIEWPORTS) {
    describe(`${title} (${viewport.name} ${viewport.width} × ${viewport.height})`, function () {
      this.timeout(180_000);
      const frame = {} as OwnerPage;
      useOwnerPage((s) => Object.assign(frame, s), viewport);
      body(frame, viewport);
    });
  }
}
