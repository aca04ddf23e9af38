import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startTestApi, type TestApi } from './api';

/** Debian's Chromium (never a downloaded browser); CHROMIUM_PATH overrides. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

let shared: Promise<Browser> | undefined;

/** One Chromium per test run, started on first use. */
export function launchBrowser(): Promise<Browser> {
  shared ??= chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ARGS });
  return shared;
}

export async function closeBrowser(): Promise<void> {
  const browser = shared;
  shared = undefined;
  if (browser) await (await browser).close();
}

export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  /** Messages the page logged as errors and uncaught exceptions, for failure reports. */
  consoleErrors: string[];
  close(): Promise<void>;
}

/** A fresh context (own storage, so own session) and page on `baseURL`, in pt-BR. */
export async function openPage(baseURL: string): Promise<BrowserSession> {
  const browser = await launchBrowser();
  const context = await browser.newContext({ baseURL, locale: 'pt-BR', viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') consoleErrors.push(msg.text());
  });
  page.on('pageerror', (err) => consoleErrors.push(String(err)));
  return { context, page, consoleErrors, close: () => context.close() };
}

/** Saves a full-page screenshot under test-results/ named after the test; returns its path. */
export async function screenshotOnFailure(page: Page | undefined, testTitle: string): Promise<string | undefined> {
  if (!page || page.isClosed()) return undefined;
  const dir = path.resolve('test-results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${testTitle.replace(/[^\w.-]+/g, '_').slice(0, 120)}.png`);
  await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
  return file;
}

/**
 * e2e runs against ui/dist: built (and precompressed) when it is missing or older than a UI source file,
 * as npm test does before the e2e stage, so one e2e file run alone never tests a stale build.
 */
export async function ensureUiBuilt(): Promise<void> {
  const { ensureUiBuilt: build } = await import('../../scripts/lib/uiBuild');
  build(path.resolve('.'));
}

export interface AppPage {
  api: TestApi;
  browser: BrowserSession;
  page: Page;
}

/**
 * The usual e2e frame, inside a describe: a fresh app (startTestApi) and page per test, a screenshot and
 * the page's errors on failure, everything closed after. `set` receives each test's app and page;
 * `config` gives the app's config overrides (read at each start, e.g. a fake's URL once it listens).
 * startTestApi is imported statically: a dynamic import() loaded a second copy of the app's modules, so a
 * test-only switch the test file set (e.g. allowLoopbackCustomEndpointsForTests) never reached the app.
 */
export function useAppPage(set: (s: AppPage) => void, config?: () => Parameters<typeof startTestApi>[0]): void {
  let current: AppPage | undefined;
  before(ensureUiBuilt);
  beforeEach(async () => {
    const api = await startTestApi(config?.());
    const browser = await openPage(api.url);
    current = { api, browser, page: browser.page };
    set(current);
  });
  afterEach(async function () {
    if (!current) return;
    if (this.currentTest?.state === 'failed') {
      const file = await screenshotOnFailure(current.page, this.currentTest.fullTitle());
      console.log(`    screenshot: ${file}\n    browser errors: ${JSON.stringify(current.browser.consoleErrors)}`);
    }
    await current.browser.close();
    await current.api.close();
    current = undefined;
  });
  after(closeBrowser);
}
