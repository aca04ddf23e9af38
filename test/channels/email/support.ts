import net from 'node:net';
import { expect } from 'chai';
import nodemailer from 'nodemailer';
import type { Config } from '../../../api/config';
import { startInboundSmtp, type InboundSmtp } from '../../../api/channels/email/smtpServer';
import { startTestApi, type TestApi } from '../../helpers/api';
import { unique, type TestOperator } from '../../helpers/factories';
import { prepareWorker, type WorkerSetup } from '../helpers';

/** What the e-mail channel suites share: the api with our inbound SMTP server, a real SMTP client to it, and the worker setup. */
export interface MailSuite {
  api: TestApi;
  smtp: InboundSmtp;
  /** nodemailer talking plain SMTP to our inbound server. */
  client: nodemailer.Transporter;
  worker: WorkerSetup;
}

/**
 * The suite's hooks: before all tests the api (on a task queue named after `queue`), the inbound SMTP server,
 * the client and the worker setup start and are handed to `ready`; after them all are closed. `config`
 * overrides the api's configuration (e.g. `smtpUrl: undefined` for an api with no outbound SMTP).
 */
export function mailSuiteHooks(queue: string, ready: (suite: MailSuite) => void, config: Partial<Config> = {}): void {
  const suite: Partial<MailSuite> = {};
  before(async () => {
    const api = (suite.api = await startTestApi({ temporalTaskQueue: unique(queue), ...config }));
    const smtp = (suite.smtp = await startInboundSmtp(api.deps, { port: 0, host: '127.0.0.1' }));
    suite.client = nodemailer.createTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true });
    suite.worker = await prepareWorker();
    ready(suite as MailSuite);
  });
  after(async () => {
    suite.client?.close();
    await suite.worker?.connection.close();
    await suite.smtp?.close();
    await suite.api?.close();
  });
}

/** `owner` adds an e-mail channel (description 'Suporte') and gets its forwarding address. */
export async function createMailChannel<T = { id: number; identifier: string }>(api: TestApi, owner: TestOperator): Promise<T> {
  const res = await api.request('POST', '/api/integrations/mail', { token: owner.token, body: { description: 'Suporte' } });
  expect(res.status).to.equal(201);
  return res.body.data as T;
}

/** A raw SMTP conversation: the server's banner, then its whole answer to each command in turn. */
export async function smtpDialog(port: number, commands: string[]): Promise<string[]> {
  const socket = net.connect(port, '127.0.0.1');
  socket.setEncoding('utf8');
  let buffer = '';
  const waiters: (() => void)[] = [];
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    waiters.splice(0).forEach((w) => w());
  });
  /** One complete reply: lines up to one whose code is followed by a space. */
  const reply = async (): Promise<string> => {
    for (;;) {
      const end = /^\d{3} .*\r\n/m.exec(buffer);
      if (end) {
        const cut = end.index + end[0].length;
        const answer = buffer.slice(0, cut).replace(/\r\n$/, '');
        buffer = buffer.slice(cut);
        return answer.replace(/\r\n/g, '\n');
      }
      await new Promise<void>((resolve, reject) => {
        waiters.push(resolve);
        socket.once('error', reject);
      });
    }
  };
  try {
    const answers = [await reply()];
    for (const command of commands) {
      socket.write(`${command}\r\n`);
      answers.push(await reply());
    }
    return answers;
  } finally {
    socket.destroy();
  }
}
