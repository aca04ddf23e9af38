import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { loadConfig } from '../../api/config';
import { testDatabase } from '../helpers/db';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(2000, () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** `node api/main.ts` as npm start runs it, until it logs that it listens. */
async function startApiProcess(env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const { url } = await testDatabase();
  const child = spawn(process.execPath, ['--import', 'tsx', 'api/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: url,
      PORT: String(port),
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'balcao-host-')),
      MIGRATE_ON_START: '0',
      TEMPORAL_ADDRESS: '127.0.0.1:1',
      JWT_SECRET: 'x'.repeat(48),
      MQTT_INTERNAL_PASSWORD: 'segredo-interno',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('api listening')) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`api exited (${code}) before listening:\n${output.slice(-2000)}`)));
    setTimeout(() => reject(new Error(`api did not listen in 30 s:\n${output.slice(-2000)}`)), 30_000);
  });
  return { child, port };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * Issue 10 item 14: the api listens on loopback unless HOST opens it (docker-compose sets 0.0.0.0).
 * 127.0.0.2 is loopback too on Linux, but a socket bound to 127.0.0.1 does not accept it: only a server
 * listening on every interface answers there.
 */
describe('http: the api listens on HOST, loopback by default', function () {
  this.timeout(90_000);

  it('defaults HOST to 127.0.0.1 and reads it from the environment', () => {
    expect(loadConfig({ JWT_SECRET: 'x', MQTT_INTERNAL_PASSWORD: 'y' }).host).to.equal('127.0.0.1');
    expect(loadConfig({ JWT_SECRET: 'x', MQTT_INTERNAL_PASSWORD: 'y', HOST: '0.0.0.0' }).host).to.equal('0.0.0.0');
  });

  it('answers on 127.0.0.1 only when HOST is unset, and on every interface with HOST=0.0.0.0', async () => {
    const loopback = await startApiProcess({});
    try {
      expect(await connects('127.0.0.1', loopback.port), '127.0.0.1').to.equal(true);
      expect(await connects('127.0.0.2', loopback.port), 'another address').to.equal(false);
    } finally {
      await stop(loopback.child);
    }
    const open = await startApiProcess({ HOST: '0.0.0.0' });
    try {
      expect(await connects('127.0.0.2', open.port), 'HOST=0.0.0.0').to.equal(true);
    } finally {
      await stop(open.child);
    }
  });
});
