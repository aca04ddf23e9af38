import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

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
