import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { testDatabase } from '../../helpers/db';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** The SMTP greeting on host:port, or undefined when nothing answers there. */
function greeting(host: string, port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(3000, () => {
      socket.destroy();
      resolve(undefined);
    });
    socket.once('data', (d: Buffer) => {
      socket.destroy();
      resolve(d.toString());
    });
    socket.once('error', () => resolve(undefined));
  });
}

describe('E-mail channel: the api process runs the inbound SMTP server', function () {
  this.timeout(60_000);
  let child: ChildProcess | undefined;
  after(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  it('listens on SMTP_PORT at HOST (loopback by default) and stops with the api', async () => {
    const [port, smtpPort, { url }] = await Promise.all([freePort(), freePort(), testDatabase()]);
    child = spawn(process.execPath, ['--import', 'tsx', 'api/main.ts'], {
      cwd: path.resolve(import.meta.dirname, '../../..'),
      env: {
        PATH: process.env.PATH ?? '',
        DATABASE_URL: url,
        PORT: String(port),
        SMTP_PORT: String(smtpPort),
        DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'balcao-smtp-')),
        MIGRATE_ON_START: '0',
        TEMPORAL_ADDRESS: '127.0.0.1:1',
        JWT_SECRET: 'x'.repeat(48),
        MQTT_INTERNAL_PASSWORD: 'segredo-interno',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('inbound smtp listening')) resolve();
      };
      child!.stdout?.on('data', onData);
      child!.stderr?.on('data', onData);
      child!.once('exit', (code) => reject(new Error(`api exited (${code}):\n${output.slice(-2000)}`)));
      setTimeout(() => reject(new Error(`no inbound smtp in 30 s:\n${output.slice(-2000)}`)), 30_000);
    });
    expect(await greeting('127.0.0.1', smtpPort)).to.match(/^220 /);
    // Bound to 127.0.0.1 (HOST unset), not every interface: 127.0.0.2 is loopback but not that address.
    expect(await greeting('127.0.0.2', smtpPort)).to.equal(undefined);

    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    expect(await greeting('127.0.0.1', smtpPort)).to.equal(undefined);
  });
});
