import { createRequire } from 'node:module';
import type * as Baileys from 'baileys';

/**
 * Baileys' protobuf classes at run time. Baileys is CommonJS and re-exports `proto` from a generated
 * file that Node's ESM loader cannot see among its named exports (`import { proto } from 'baileys'`
 * fails when `npm start` loads the worker as ESM, while tsx's CommonJS path in mocha accepts it), so the
 * value comes through require. Type positions keep `import type { proto } from 'baileys'`.
 */
export const waProto: typeof Baileys.proto = (createRequire(import.meta.url)('baileys') as typeof Baileys).proto;
