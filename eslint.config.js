// @ts-check
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

// Layers of api/ (docs/architecture.md "Floors of api/"): the edge (app.ts, routers) on top, the areas'
// commands, queries and presenters below it, and this ground floor that every area stands on.
const ground = ['models', 'db', 'policy', 'storage', 'mail', 'jobs', 'system', 'temporal', 'http'];
// The floor above the ground: who is asking (sessions, API tokens, visitor tokens) and the realtime broker that
// checks it. Every domain area builds on these; they never import a domain area.
const access = ['auth', 'apiTokens', 'realtime'];
const groundFiles = ['config', 'logger', 'exitWithParent'];
/** Relative imports from an access-floor file that reach a domain area; types may. */
const accessOnly = {
  regex: `^\\.\\./(?!(${[...ground, ...access].join('|')})/|(${groundFiles.join('|')})$)`,
  allowTypeImports: true,
  message: 'auth, apiTokens and realtime stand on the ground floor only: a domain area is told through a hook (e.g. the broker\'s onPresence), never imported.',
};
const noActivities = { regex: '^(\\.\\./)+activities(/|$)', message: 'api/ never imports activities/ (the worker imports api/, not back): move what both need into api/.' };
const noRouters = { regex: '^\\.\\.?/(.*/)?(router|[A-Za-z]+Router|app|main)$', message: 'Only api/app.ts imports routers (the http edge): move the shared piece into a command or query module.' };
const noOtherRouters = { regex: '^\\.\\.?/(.*/)?(router|(?!resource)[A-Za-z]+Router)$', message: 'A router never imports another router; api/app.ts mounts them all.' };
/** Relative imports from a ground file (`prefix` reaches api/) that leave the ground floor; types may. */
const groundOnly = (prefix) => ({
  regex: `^${prefix}(?!(${ground.join('|')})/|(${groundFiles.join('|')})$)`,
  allowTypeImports: true,
  message: 'The ground floor of api/ never imports the areas above it (docs/architecture.md "Floors of api/").',
});

export default tseslint.config(
  { ignores: ['node_modules/**', 'ui/dist/**', '.tools/**', 'data/**', 'bench/results/**', 'test-results/**', '**/*.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    // Workflow code must stay deterministic: no Node built-ins, and api/ and activities/ only as types
    // (DESIGN.md §5, docs/architecture.md "The rooms").
    files: ['workflows/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({ name, message: 'Workflows are deterministic: do I/O in activities/.' })),
          patterns: [
            {
              regex: '^(\\.\\./)+(api|activities)(/|$)',
              allowTypeImports: true,
              message: 'Workflows import api/ and activities/ only as `import type`; shared pure logic lives under workflows/<area>/.',
            },
          ],
        },
      ],
    },
  },
  {
    // api/ never loads the worker's code, and only app.ts mounts routers (docs/architecture.md "Floors of api/").
    files: ['api/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [noActivities, noRouters] }] },
  },
  {
    // Routers build on the one router factory (crud/resourceRouter.ts) but never import another router.
    files: ['api/**/router.ts', 'api/**/*Router.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [noActivities, noOtherRouters] }] },
  },
  {
    // The top of the edge: main.ts starts app.ts, which mounts every router.
    files: ['api/app.ts', 'api/main.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [noActivities] }] },
  },
  {
    // The ground floor of api/ imports only itself (and http/errors, http/guardedFetch) at run time.
    files: [`api/{${ground.join(',')}}/*.ts`],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [noActivities, groundOnly('\\.\\./(?!\\.\\./)')] }] },
  },
  {
    files: [`api/{${groundFiles.join(',')}}.ts`],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [noActivities, groundOnly('\\./')] }] },
  },
  {
    files: [`api/{${access.join(',')}}/*.ts`],
    ignores: ['api/**/router.ts', 'api/**/*Router.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [noActivities, noRouters, accessOnly] }] },
  },
);
