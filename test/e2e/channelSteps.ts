import type { Locator, Page } from 'playwright-core';
import type { TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator } from '../helpers/factories';
import { withChannelWorker, type WorkerSetup } from '../channels/helpers';
import { logIn } from './support';

/** Steps the channel e2e tests (e-mail, Telegram) share: the line's owner, the inbox live, a conversation opened, the composer. */

/** A new workspace and its owner (level 10), who connects the line. */
export async function makeLineOwner(api: TestApi): Promise<TestOperator> {
  const ws = await makeWorkspace(api.deps.knex);
  return makeOperator(api.deps.knex, api.config.jwtSecret, ws, 10, { name: 'Otávio Dono' });
}

/** Runs `fn` with the channel worker on, retrying a failed delivery quickly (3 attempts, 100–500 ms apart). */
export function withQuickRetries(api: TestApi, worker: WorkerSetup, fn: () => Promise<void>): Promise<void> {
  return withChannelWorker(api, worker, fn, { channels: { initialDelayMs: 100, maxDelayMs: 500, maxAttempts: 3 } });
}

/** Logs in and waits until the inbox's realtime connection is online, so what arrives next shows live. */
export async function logInLive(page: Page, owner: TestOperator): Promise<void> {
  await logIn(page, owner);
  await page.locator('[data-testid="live-indicator"][data-status="online"]').waitFor();
}

/** Waits for the conversation whose row shows `text` in the list and opens it. */
export async function openConversation(page: Page, text: string): Promise<void> {
  const row = page.getByRole('option').filter({ hasText: text });
  await row.waitFor();
  await row.click();
}

export const messageLog = (page: Page): Locator => page.getByRole('log', { name: 'Mensagens da conversa' });

export const composer = (page: Page): Locator => page.getByRole('combobox', { name: /Responder|Nota privada/ });
