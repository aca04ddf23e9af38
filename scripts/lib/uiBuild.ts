import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * Builds ui/dist with Vite when it is missing or older than any UI source file. The app's build also
 * builds the embeddable chat widget (ui/widget → ui/dist/widget.js, a plugin in ui/vite.config.ts).
 */
export function ensureUiBuilt(root: string, force = false): void {
  if (!existsSync(path.join(root, 'ui/vite.config.ts'))) return;
  const newest = newestMtime(path.join(root, 'ui'));
  const fresh = (file: string) => existsSync(file) && statSync(file).mtimeMs >= newest;
  if (!force && fresh(path.join(root, 'ui/dist/index.html')) && fresh(path.join(root, 'ui/dist/widget.js'))) return;
  console.log('• Construindo a interface (vite build)…');
  const r = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'ui/vite.config.ts', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error('Falha ao construir a interface (vite build).');
}
