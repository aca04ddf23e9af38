import { readFileSync } from 'node:fs';
import { stopPid } from '../../api/system/processes';

/**
 * The arguments of `temporal server start-dev` for npm start. Both the frontend and the Web UI listen on
 * 127.0.0.1 only: neither has a login, and the UI shows workflow payloads (tenant data). Deployments
 * put the UI behind authentication (docs/deployment.md).
 */
export function devServerArgs(options: { port: number; uiPort: number; dbFile: string; logLevel?: string }): string[] {
  return [
    'server', 'start-dev',
    '--ip', '127.0.0.1',
    '--port', String(options.port),
    '--ui-ip', '127.0.0.1',
    '--ui-port', String(options.uiPort),
    '--db-filename', options.dbFile,
    '--log-level', options.logLevel ?? 'error',
  ];
}

/**
 * The dev server runs in its own process group (scripts/lib/processes.ts), so an npm start killed with
 * -9 leaves it running on its port: the next start stops it when the pid it wrote still names a
 * `temporal server start-dev` process.
 */
export async function stopLeftoverTemporal(pidFile: string): Promise<void> {
  let pid: number;
  let cmdline: string;
  try {
    pid = Number(readFileSync(pidFile, 'utf8'));
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return;
  }
  if (!cmdline.includes('temporal') || !cmdline.includes('start-dev')) return;
  await stopPid(pid, 'SIGTERM', 'SIGKILL');
}
