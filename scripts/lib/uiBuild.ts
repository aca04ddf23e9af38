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

function viteBuild(root: string, config: string): void {
  const r = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', config, '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error(`Falha ao construir a interface (vite build --config ${config}).`);
}

/**
 * Builds ui/dist with Vite when it is missing or older than any UI source file: the app, then the
 * embeddable chat widget (ui/widget → ui/dist/widget.js), which must come second because the app's build
 * empties ui/dist.
 */
export function ensureUiBuilt(root: string, force = false): void {
  const index = path.join(root, 'ui/dist/index.html');
  const widget = path.join(root, 'ui/dist/widget.js');
  if (!existsSync(path.join(root, 'ui/vite.config.ts'))) return;
  const newest = newestMtime(path.join(root, 'ui'));
  const fresh = (file: string) => existsSync(file) && statSync(file).mtimeMs >= newest;
  const hasWidget = existsSync(path.join(root, 'ui/widget/vite.config.ts'));
  if (!force && fresh(index) && (!hasWidget || fresh(widget))) return;
  console.log('• Construindo a interface (vite build)…');
  viteBuild(root, 'ui/vite.config.ts');
  if (hasWidget) viteBuild(root, 'ui/widget/vite.config.ts');
}
