import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { simpleParser } from 'mailparser';
import type nodemailer from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import type Mail from 'nodemailer/lib/mailer';
import { parseSpooledMail, removeAttachmentFiles } from '../../../api/channels/email/parseMail';
import { createStorage } from '../../../api/storage/storage';
import type { TestApi } from '../../helpers/api';
import { unique } from '../../helpers/factories';
import { makeOwner } from '../helpers';
import { createMailChannel, mailSuiteHooks } from './support';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Every Buffer reachable from `value` (the parsed mail handed to the inbound handler), with its path. */
function buffersIn(value: unknown, where = 'mail', seen = new Set<unknown>()): string[] {
  if (Buffer.isBuffer(value)) return [`${where} (${value.length} bytes)`];
  if (!value || typeof value !== 'object' || seen.has(value)) return [];
  seen.add(value);
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
  return entries.flatMap(([k, v]) => buffersIn(v, `${where}.${String(k)}`, seen));
}

async function rawMail(mail: Mail.Options): Promise<Buffer> {
  return new MailComposer(mail).compile().build();
}

describe('E-mail attachments stream from the spool to storage, never whole in memory', function () {
  this.timeout(120_000);

  const big = randomBytes(10 * 1024 * 1024);
  const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(2000)]);
  const mailOptions = (messageId: string): Mail.Options => ({
    from: '"Joana Cliente" <joana@cliente.example>',
    to: 'suporte@balcao.example',
    subject: 'Planilha',
    text: 'Segue a planilha.',
    html: '<p>Segue a planilha. <img src="cid:logo@cliente"></p>',
    messageId,
    attachments: [
      { filename: 'planilha.bin', content: big, contentType: 'application/octet-stream' },
      { filename: 'logo.png', content: png, contentType: 'image/png', cid: 'logo@cliente' },
    ],
  });

  describe('parseSpooledMail', () => {
    let dir: string;
    before(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), 'mail-spool-'));
    });
    after(() => rm(dir, { recursive: true, force: true }));

    it('hands over attachments as spool files with their size and sha256 and no Buffer of their bytes; the rest is what simpleParser gives', async () => {
      const raw = await rawMail(mailOptions('<parse-1@cliente.example>'));
      const file = path.join(dir, 'mail.eml');
      await writeFile(file, raw);
      const mail = await parseSpooledMail(file);
      try {
        expect(buffersIn(mail)).to.deep.equal([]);
        expect(mail.attachments.map((a) => a.filename)).to.have.members(['planilha.bin', 'logo.png']);
        const sheet = mail.attachments.find((a) => a.filename === 'planilha.bin')!;
        const logo = mail.attachments.find((a) => a.filename === 'logo.png')!;
        expect(sheet).to.include({ size: big.length, sha256: sha256(big), contentType: 'application/octet-stream' });
        expect(path.dirname(sheet.file!)).to.equal(dir);
        expect((await readFile(sheet.file!)).equals(big)).to.equal(true);
        expect(logo).to.include({ size: png.length, sha256: sha256(png), cid: 'logo@cliente', related: true });

        const reference = await simpleParser(raw);
        expect(mail.attachments.map((a) => [a.filename, a.contentType, a.contentDisposition, a.cid, a.related, a.size])).to.deep.equal(
          reference.attachments.map((a) => [a.filename, a.contentType, a.contentDisposition, a.cid, a.related, a.size]),
        );
        for (const key of ['subject', 'messageId', 'date', 'from', 'to', 'text', 'html', 'textAsHtml', 'references', 'inReplyTo'] as const) {
          expect(mail[key], key).to.deep.equal(reference[key]);
        }
        expect(mail.html).to.include(`data:image/png;base64,${png.toString('base64')}`);
        expect([...mail.headers.keys()]).to.deep.equal([...reference.headers.keys()]);
        expect(mail.headerLines).to.deep.equal(reference.headerLines);
      } finally {
        await removeAttachmentFiles(mail);
      }
      expect(await readdir(dir)).to.deep.equal(['mail.eml']);
    });

    it('an attachment over 16 MB leaves no spool file: counted, not kept', async () => {
      const file = path.join(dir, 'huge.eml');
      await writeFile(file, await rawMail({ from: 'a@cliente.example', subject: 'x', text: 'x', attachments: [{ filename: 'video.mp4', content: Buffer.alloc(16 * 1024 * 1024 + 1, 7), contentType: 'video/mp4' }] }));
      const mail = await parseSpooledMail(file);
      expect(mail.attachments).to.have.length(1);
      expect(mail.attachments[0]).to.include({ file: null, size: 16 * 1024 * 1024 + 1 });
      expect((await readdir(dir)).filter((n) => n.startsWith('huge.eml.'))).to.deep.equal([]);
    });
  });

  describe('through the SMTP server', () => {
    let api: TestApi;
    let client: nodemailer.Transporter;
    mailSuiteHooks('email-spool', (s) => ({ api, client } = s));

    it('a 10 MB attachment is stored byte for byte with its sha256, and no spool file is left after the mail', async () => {
      const { owner } = await makeOwner(api);
      const channel = await createMailChannel(api, owner);
      const messageId = `<${unique('spool')}@cliente.example>`;
      await client.sendMail({ ...mailOptions(messageId), to: channel.identifier });
      const [row] = await api.deps.knex('messages').where({ channelId: channel.id });
      const files = (row.content as { file?: { key: string; fileName: string; size: number } }[]).filter((i) => i.file).map((i) => i.file!);
      expect(files.map((f) => f.fileName)).to.deep.equal(['planilha.bin']);
      expect(files[0].size).to.equal(big.length);
      const stored = await api.deps.knex('stored_files').where({ key: files[0].key }).first();
      expect(stored).to.include({ size: big.length, sha256: sha256(big), channelId: channel.id });
      const obj = await createStorage(api.config).get(files[0].key);
      const chunks: Buffer[] = [];
      for await (const c of obj!.stream) chunks.push(c as Buffer);
      expect(Buffer.concat(chunks).equals(big)).to.equal(true);
      expect(row.extraData.html).to.include(`data:image/png;base64,${png.toString('base64')}`);
      expect(await readdir(path.join(api.config.dataDir, 'tmp', 'smtp-spool'))).to.deep.equal([]);
    });
  });
});
