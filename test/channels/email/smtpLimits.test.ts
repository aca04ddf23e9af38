import { mkdir, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { expect } from 'chai';
import { MAIL_SIZE_LIMIT, OVERSIZE_DRAIN_BYTES } from '../../../api/channels/email/addresses';
import { clientAddressKey, startInboundSmtp, type InboundSmtp, type SmtpLimits } from '../../../api/channels/email/smtpServer';
import { startTestApi, type TestApi } from '../../helpers/api';
import { makeOwner } from '../helpers';
import { createMailChannel } from './support';

/** A raw SMTP client socket from a chosen loopback source address, reading the server's replies line by line. */
class RawSmtp {
  readonly socket: net.Socket;
  private buffer = '';
  private waiters: (() => void)[] = [];
  closed = false;

  constructor(port: number, localAddress = '127.0.0.1') {
    this.socket = net.connect({ port, host: '127.0.0.1', localAddress });
    this.socket.setEncoding('utf8');
    this.socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      this.wake();
    });
    this.socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    this.socket.on('error', () => undefined);
  }

  private wake() {
    this.waiters.splice(0).forEach((w) => w());
  }

  /** Whether a complete reply is waiting to be read. */
  hasReply(): boolean {
    return /^\d{3} .*\r\n/m.test(this.buffer);
  }

  /** The next complete reply, or 'closed' when the connection ends first, or 'no reply' after `ms`. */
  async reply(ms = 5000): Promise<string> {
    const until = Date.now() + ms;
    for (;;) {
      const end = /^\d{3} .*\r\n/m.exec(this.buffer);
      if (end) {
        const cut = end.index + end[0].length;
        const answer = this.buffer.slice(0, cut).trim();
        this.buffer = this.buffer.slice(cut);
        return answer;
      }
      if (this.closed) return 'closed';
      const left = until - Date.now();
      if (left <= 0) return 'no reply';
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async command(line: string): Promise<string> {
    this.socket.write(`${line}\r\n`);
    return this.reply();
  }

  /** Writes `bytes` and resolves when the socket accepted them (false: the connection is gone). */
  write(bytes: Buffer): Promise<boolean> {
    if (this.closed || this.socket.destroyed) return Promise.resolve(false);
    return new Promise((resolve) => {
      this.socket.write(bytes, (err) => resolve(!err));
    });
  }

  end() {
    this.socket.destroy();
  }
}

describe('E-mail channel: the inbound SMTP server bounds what one client can hold', function () {
  this.timeout(120_000);
  let api: TestApi;
  const servers: InboundSmtp[] = [];
  const clients: RawSmtp[] = [];
  before(async () => {
    api = await startTestApi();
  });
  afterEach(async () => {
    clients.splice(0).forEach((c) => c.end());
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  after(async () => {
    await api?.close();
  });
  const start = async (limits: Partial<SmtpLimits> = {}) => {
    const smtp = await startInboundSmtp(api.deps, { port: 0, host: '127.0.0.1', limits });
    servers.push(smtp);
    return smtp;
  };
  const connect = (smtp: InboundSmtp, from = '127.0.0.1') => {
    const c = new RawSmtp(smtp.port, from);
    clients.push(c);
    return c;
  };

  it('a mail far over 25 MB sent without SIZE= is answered 552 and cut off soon after the limit, before its final dot, keeping nothing', async () => {
    const smtp = await start();
    const { owner } = await makeOwner(api);
    const channel = await createMailChannel(api, owner);
    const c = connect(smtp);
    expect(await c.reply()).to.match(/^220 /);
    expect(await c.command('EHLO cliente.example')).to.match(/^250 /m);
    expect(await c.command('MAIL FROM:<maria@cliente.example>')).to.match(/^250 /);
    expect(await c.command(`RCPT TO:<${channel.identifier}>`)).to.match(/^250 /);
    expect(await c.command('DATA')).to.match(/^354 /);
    await c.write(Buffer.from(`From: maria@cliente.example\r\nTo: ${channel.identifier}\r\nSubject: Enorme\r\n\r\n`));
    // Three times the limit, never the final dot: the old server read it all and kept it in memory,
    // answering only at a dot that never comes.
    const line = Buffer.alloc(1024 * 1024, 'a'.repeat(1022) + '\r\n');
    let written = 0;
    while (written < 3 * MAIL_SIZE_LIMIT && !c.hasReply() && !c.closed) {
      if (!(await c.write(line))) break;
      written += line.length;
    }
    const answer = await c.reply(10_000);
    expect(answer).to.match(/^552 /);
    // What the client got in before the answer: the limit, the drain allowance and what the sockets buffer.
    expect(written).to.be.below(MAIL_SIZE_LIMIT + OVERSIZE_DRAIN_BYTES + 16 * 1024 * 1024);
    expect(await c.reply(5000)).to.equal('closed');
    expect(await api.deps.knex('messages').where({ channelId: channel.id })).to.have.length(0);
    expect(await readdir(path.join(api.config.dataDir, 'tmp', 'smtp-spool'))).to.deep.equal([]);
  });

  it('a mail within the limit goes to a spool file on disk as it arrives (before its final dot), is stored, and the spool file is removed', async () => {
    const smtp = await start();
    const { owner } = await makeOwner(api);
    const channel = await createMailChannel(api, owner);
    const spoolDir = path.join(api.config.dataDir, 'tmp', 'smtp-spool');
    const c = connect(smtp);
    expect(await c.reply()).to.match(/^220 /);
    expect(await c.command('EHLO cliente.example')).to.match(/^250 /m);
    expect(await c.command('MAIL FROM:<maria@cliente.example>')).to.match(/^250 /);
    expect(await c.command(`RCPT TO:<${channel.identifier}>`)).to.match(/^250 /);
    expect(await c.command('DATA')).to.match(/^354 /);
    await c.write(Buffer.from(`From: maria@cliente.example\r\nTo: ${channel.identifier}\r\nSubject: Relatorio\r\nMessage-ID: <${Date.now()}.spool@cliente.example>\r\n\r\nSegue o relatorio.\r\n`));
    const body = Buffer.alloc(3 * 1024 * 1024, 'b'.repeat(998) + '\r\n');
    await c.write(body);
    // Before the dot, the bytes sent so far are on disk.
    let spooled = 0;
    for (let i = 0; i < 100 && spooled < body.length; i++) {
      await new Promise((r) => setTimeout(r, 50));
      const files = await readdir(spoolDir);
      spooled = files.length === 1 ? (await stat(path.join(spoolDir, files[0]))).size : 0;
    }
    expect(spooled).to.be.at.least(body.length);
    // The body's last line is cut short by the buffer's size: end it, then the final dot.
    expect(await c.command('\r\n.')).to.match(/^250 /);
    const rows = await api.deps.knex('messages').where({ channelId: channel.id });
    expect(rows).to.have.length(1);
    expect(rows[0].text).to.include('Segue o relatorio.');
    expect(await readdir(spoolDir)).to.deep.equal([]);
  });

  it('on start, removes the spool files a crashed process left (untouched for over an hour) and keeps fresh ones', async () => {
    const spoolDir = path.join(api.config.dataDir, 'tmp', 'smtp-spool');
    await mkdir(spoolDir, { recursive: true });
    await writeFile(path.join(spoolDir, 'abandonado.eml'), 'x');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await utimes(path.join(spoolDir, 'abandonado.eml'), twoHoursAgo, twoHoursAgo);
    await writeFile(path.join(spoolDir, 'recente.eml'), 'y');
    try {
      await start();
      expect(await readdir(spoolDir)).to.deep.equal(['recente.eml']);
    } finally {
      await rm(path.join(spoolDir, 'recente.eml'), { force: true });
    }
  });

  it('one address gets at most its share of connections (421 beyond), while another address still connects', async () => {
    const smtp = await start({ connectionsPerAddress: 3 });
    const own = [connect(smtp), connect(smtp), connect(smtp)];
    for (const c of own) expect(await c.reply()).to.match(/^220 /);
    const extra = connect(smtp);
    expect(await extra.reply()).to.match(/^421 /);
    expect(await extra.reply()).to.equal('closed');
    const other = connect(smtp, '127.0.0.2');
    expect(await other.reply()).to.match(/^220 /);
    // A connection that ends frees its slot.
    own[0].end();
    await new Promise((r) => setTimeout(r, 200));
    const again = connect(smtp);
    expect(await again.reply()).to.match(/^220 /);
  });

  it('a client that never starts DATA is closed with 421 at the pre-DATA deadline, NOOPs notwithstanding', async () => {
    const smtp = await start({ preDataTimeoutMs: 1000 });
    const c = connect(smtp);
    const started = Date.now();
    expect(await c.reply()).to.match(/^220 /);
    expect(await c.command('EHLO cliente.example')).to.match(/^250 /m);
    let last = '';
    while (Date.now() - started < 5000) {
      await new Promise((r) => setTimeout(r, 150));
      if (c.closed || c.hasReply()) break;
      last = await c.command('NOOP');
      if (!last.startsWith('250')) break;
    }
    const elapsed = Date.now() - started;
    const final = last.startsWith('421') ? last : await c.reply(1000);
    expect(final).to.match(/^421 /);
    expect(elapsed).to.be.below(3000);
  });

  it('counts IPv6 clients per /64 and IPv4-mapped addresses as IPv4', () => {
    expect(clientAddressKey('2001:db8:1:2:aaaa::1')).to.equal(clientAddressKey('2001:db8:1:2:bbbb:cccc:dddd:eeee'));
    expect(clientAddressKey('2001:db8:1:2::1')).to.equal('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:db8:1:3::1')).to.not.equal(clientAddressKey('2001:db8:1:2::1'));
    expect(clientAddressKey('::ffff:192.0.2.7')).to.equal('192.0.2.7');
    // However the address is written: zero-padded, upper case, compressed elsewhere.
    expect(clientAddressKey('2001:0DB8:0001:0002:0:0:0:1')).to.equal('2001:db8:1:2::/64');
    expect(clientAddressKey('192.0.2.7')).to.not.equal(clientAddressKey('192.0.2.8'));
  });
});
