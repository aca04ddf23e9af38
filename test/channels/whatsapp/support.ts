import { expect } from 'chai';
import { startTestApi, type TestApi } from '../../helpers/api';
import { unique, type TestOperator } from '../../helpers/factories';
import { MetaGraphFake, messagesWebhook, postWebhook, type GraphTemplateRecord } from '../../fakes/metaGraph';
import { prepareWorker, until, withChannelWorker, type WorkerSetup } from '../helpers';

/** Setup the WhatsApp Cloud API tests share: the API against the Meta Graph fake, a Cloud line, webhooks delivered to it. */

/** A Cloud line as POST /api/integrations/whatsapp answers it. */
export interface CloudLine {
  id: number;
  identifier: string;
  webhookUrl: string;
  /** The app-level webhook every Cloud line of a Meta app shares. */
  appWebhookUrl: string;
  verifyToken: string;
  phoneNumberId: string;
  businessAccountId: string;
}

export const CLOUD_LINE_PHONE = '+55 (11) 91234-5678';

/** Keeps the phone number ids of lines added in the same millisecond apart. */
let lineCount = 0;

/** Starts the fake, then the API (its Graph base URL on the fake) and the worker's bundle. */
export async function startCloudApi(graph: MetaGraphFake, queue: string): Promise<{ api: TestApi; worker: WorkerSetup }> {
  await graph.start();
  const api = await startTestApi({ temporalTaskQueue: unique(queue), metaGraphUrl: graph.url });
  return { api, worker: await prepareWorker() };
}

export async function stopCloudApi(graph: MetaGraphFake, api: TestApi | undefined, worker: WorkerSetup | undefined): Promise<void> {
  await worker?.connection.close();
  await api?.close();
  await graph.stop();
}

/**
 * The owner adds a Cloud line with a fresh access token the fake accepts, the fake's records of a previous test
 * cleared. With `templates`, the line gets its own business account whose templates the fake lists.
 */
export async function addCloudLine(
  api: TestApi,
  graph: MetaGraphFake,
  owner: TestOperator,
  opts: { appSecret: string; templates?: GraphTemplateRecord[] },
): Promise<{ line: CloudLine; token: string }> {
  const token = unique('EAAG-token');
  graph.allowToken(token);
  graph.sent.length = 0;
  graph.reads.length = 0;
  graph.templateQueries.length = 0;
  graph.nextSendErrors.length = 0;
  let businessAccountId = '102290129340398';
  if (opts.templates) {
    businessAccountId = String(Date.now()) + String(Math.floor(Math.random() * 1000));
    graph.templates.set(businessAccountId, opts.templates);
  }
  const res = await api.request('POST', '/api/integrations/whatsapp', {
    token: owner.token,
    body: { name: 'Vendas', phone: CLOUD_LINE_PHONE, provider: 'cloud', phoneNumberId: String(Date.now()) + String(++lineCount).padStart(3, '0'), businessAccountId, accessToken: token, appSecret: opts.appSecret },
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return { line: res.body.data as CloudLine, token };
}

/** The line's webhook on the test API (its public URL's path). */
export const cloudHookUrl = (api: TestApi, line: Pick<CloudLine, 'webhookUrl'>): string => api.url + new URL(line.webhookUrl).pathname;

/**
 * Waits until every WhatsApp Cloud body the api stored has been through its first processing: the hook
 * answers once the body is stored, its media and events come right after (docs/channels/whatsapp.md).
 */
export const cloudSettled = (api: TestApi): Promise<void> =>
  until(async () => !(await api.deps.knex('hook_events').where({ source: 'whatsapp', attempts: 0 }).whereNull('processed_at').first('id')));

/** Posts a webhook the way Meta does (postWebhook of the fake), then waits for what it stored to be processed. */
export async function postCloudWebhook(api: TestApi, url: string, payload: unknown, appSecret: string | null, signature?: string): Promise<{ status: number; body: unknown }> {
  const res = await postWebhook(url, payload, appSecret, signature);
  await cloudSettled(api);
  return res;
}

/** Meta delivers `messages` from `customer` to the line, signed with the app secret; resolves once they are processed. */
export const deliverCloudMessages = (
  api: TestApi,
  line: Pick<CloudLine, 'webhookUrl' | 'phoneNumberId' | 'businessAccountId'>,
  appSecret: string,
  customer: { waId: string; name: string },
  messages: Record<string, unknown>[],
) => postCloudWebhook(api, cloudHookUrl(api, line), messagesWebhook(line, customer, messages), appSecret);

/** Runs `fn` with the channel worker on, a failed send retried quickly (100–200 ms apart). */
export const withQuickWorker = (api: TestApi, worker: WorkerSetup, fn: () => Promise<void>, maxAttempts = 3): Promise<void> =>
  withChannelWorker(api, worker, fn, { channels: { initialDelayMs: 100, maxDelayMs: 200, maxAttempts } });
