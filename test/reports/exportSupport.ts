import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import ExcelJS from 'exceljs';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { bundleWorkflowCode, DefaultLogger, Worker, type NativeConnection } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { createLogger } from '../../api/logger';
import type { TestApi } from '../helpers/api';
import { testNativeConnection } from '../helpers/temporal';

const workflowsPath = fileURLToPath(new URL('../../workflows/index.ts', import.meta.url));

/** A loopback SMTP sink keeping each mail's exact bytes, parsed (attachments included) with mailparser. */
export class AttachmentSink {
  readonly mails: ParsedMail[] = [];
  private server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData: (stream, _session, callback) => {
      void simpleParser(stream).then(
        (mail) => {
          this.mails.push(mail);
          callback();
        },
        (err: Error) => callback(err),
      );
    },
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `smtp://127.0.0.1:${(this.server.server.address() as AddressInfo).port}`;
  }

  async waitFor(to: string, predicate: (m: ParsedMail) => boolean = () => true, timeoutMs = 30_000): Promise<ParsedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.mails.find((m) => recipients(m).includes(to.toLowerCase()) && predicate(m));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function recipients(m: ParsedMail): string[] {
  const to = Array.isArray(m.to) ? m.to : m.to ? [m.to] : [];
  return to.flatMap((a) => a.value.map((v) => (v.address ?? '').toLowerCase()));
}

/** A worker on the api's task queue whose activities mail through `smtpUrl`. */
export async function startExportWorker(api: TestApi, smtpUrl: string): Promise<{ worker: Worker; running: Promise<void>; connection: NativeConnection }> {
  const [connection, workflowBundle] = await Promise.all([testNativeConnection(), bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('WARN') })]);
  const worker = await Worker.create({
    connection,
    taskQueue: api.config.temporalTaskQueue,
    workflowBundle,
    activities: createActivities({ knex: api.deps.knex, publisher: api.deps.publisher, logger: createLogger('silent'), config: { ...api.config, smtpUrl } }),
  });
  return { worker, running: worker.run(), connection };
}

/** The first sheet of an .xlsx as rows of cell values (exceljs reads it back: the file is readable). */
export async function xlsxRows(content: Buffer): Promise<{ rows: unknown[][]; formulas: number }> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(content as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  let formulas = 0;
  book.worksheets[0].eachRow({ includeEmpty: true }, (row) => {
    const values: unknown[] = [];
    row.eachCell({ includeEmpty: true }, (cell) => {
      if (cell.type === ExcelJS.ValueType.Formula) formulas++;
      values.push(cell.value);
    });
    rows.push(values);
  });
  return { rows, formulas };
}

export function attachment(mail: ParsedMail, ext: string): Buffer {
  const found = mail.attachments.find((a) => a.filename?.endsWith(ext));
  if (!found) throw new Error(`no ${ext} attachment in "${mail.subject}"`);
  return found.content;
}
