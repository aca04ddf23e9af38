import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** Text assets worth compressing; images and fonts are compressed formats already. */
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.svg', '.json', '.html', '.txt', '.map', '.wasm']);
/** Below this, the headers cost more than compression saves. */
const MIN_BYTES = 1024;

const VARIANTS = [
  { suffix: '.br', compress: (b: Buffer) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: b.length } }) },
  { suffix: '.gz', compress: (b: Buffer) => gzipSync(b, { level: 9 }) },
] as const;

/**
 * Writes `name.br` and `name.gz` next to every compressible hashed asset of ui/dist/assets, for
 * api/http/serveUi.ts to send by Accept-Encoding (issue 11 §5). Idempotent: a variant newer than its
 * source is kept, so it is cheap to run on every start; a variant that would not be smaller is not
 * written (the asset then goes out as it is). Returns how many files it wrote.
 */
export function precompressAssets(distDir: string): number {
  const dir = path.join(distDir, 'assets');
  if (!existsSync(dir)) return 0;
  let written = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isFile() || !COMPRESSIBLE.has(path.extname(entry.name))) continue;
    const source = path.join(dir, entry.name);
    const { size, mtimeMs } = statSync(source);
    let body: Buffer | undefined;
    for (const variant of VARIANTS) {
      const target = source + variant.suffix;
      if (existsSync(target) && statSync(target).mtimeMs >= mtimeMs) continue;
      if (existsSync(target)) unlinkSync(target);
      if (size < MIN_BYTES) continue;
      body ??= readFileSync(source);
      const compressed = variant.compress(body);
      if (compressed.length >= body.length) continue;
      writeFileSync(target, compressed);
      written++;
    }
  }
  return written;
}

/** Files outside ui/ that the build reads: the public pricing page prints api/billing/plans.ts's prices. */
const BUILD_INPUTS_OUTSIDE_UI = ['api/billing/plans.ts'];

/**
 * What one build writes, each checked against the sources: the SPA, the embeddable chat widget
 * (ui/widget → widget.js) and the prerendered public site (ui/site → site/pages/, docs/public-site.md), the
 * last two written by plugins of ui/vite.config.ts.
 */
const BUILD_OUTPUTS = ['ui/dist/index.html', 'ui/dist/widget.js', 'ui/dist/site/pages/index.html'];

/**
 * Builds ui/dist with Vite when any of its outputs is missing or older than a UI source file (or another
 * input of BUILD_INPUTS_OUTSIDE_UI), then precompresses its hashed assets.
 */
export function ensureUiBuilt(root: string, force = false): void {
  if (!existsSync(path.join(root, 'ui/vite.config.ts'))) return;
  const inputs = BUILD_INPUTS_OUTSIDE_UI.map((f) => path.join(root, f)).filter((f) => existsSync(f));
  const newest = Math.max(newestMtime(path.join(root, 'ui')), ...inputs.map((f) => statSync(f).mtimeMs));
  const fresh = (file: string) => existsSync(file) && statSync(file).mtimeMs >= newest;
  if (force || !BUILD_OUTPUTS.every((f) => fresh(path.join(root, f)))) {
    console.log('• Construindo a interface (vite build)…');
    const r = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'ui/vite.config.ts', '--logLevel', 'warn'], {
      cwd: root,
      stdio: 'inherit',
    });
    if (r.status !== 0) throw new Error('Falha ao construir a interface (vite build).');
  }
  precompressAssets(path.join(root, 'ui/dist'));
}

// `npm run build:ui` (`node --import tsx scripts/lib/uiBuild.ts --force`): vite, then the compressed variants.
// A ui/dist from plain `vite build` has none; its assets are then served as they are.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  ensureUiBuilt(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..'), process.argv.includes('--force'));
}
