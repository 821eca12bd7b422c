// Lint rules, including the import boundaries between the four source trees:
// shared imports nothing of ours; workers and api import only shared; web imports shared
// and worker types; e2e may import shared only.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import folderCycles from './scripts/eslint-folder-cycles.js';

const API_TESTS = ['api/**/*.test.ts', 'api/test/**'];

/** Kysely's query builders and raw sql``: SQL lives in repository.ts files (and the migrations' .sql files) only. */
const SQL_MESSAGE = 'SQL belongs in a repository.ts: services call repositories.';
const SQL_SYNTAX = [
  ...['selectFrom', 'insertInto', 'updateTable', 'deleteFrom', 'replaceInto', 'mergeInto', 'selectNoFrom', 'query'].map((name) => ({
    selector: `CallExpression[callee.property.name='${name}']`,
    message: SQL_MESSAGE,
  })),
  { selector: "TaggedTemplateExpression[tag.name='sql']", message: SQL_MESSAGE },
  { selector: "TaggedTemplateExpression[tag.object.name='sql']", message: SQL_MESSAGE },
  { selector: "ImportSpecifier[imported.name='sql']", message: SQL_MESSAGE },
];

/**
 * Outside a module, only a module's index.ts may be imported (app.ts, seed, other trees);
 * every api/ file also keeps to api/ and shared/. Flat config replaces a rule's options
 * rather than merging them, so each block repeats these alongside its own.
 */
const API_BASE_IMPORTS = [
  { regex: '(^|/)(web|workers|e2e)/', message: 'api/ imports only shared/.' },
  { regex: '(^|/)modules/[^/]+/(?!index\\.ts$)', message: "outside a module, import it through its index.ts." },
  { regex: '(^|/)integrations/[^/]+/(?!index\\.ts$)', message: 'outside an integration, import it through its index.ts.' },
];
const apiImports = (extra) => ({
  'no-restricted-imports': ['error', { patterns: [...API_BASE_IMPORTS, ...extra] }],
});

const boundary = (patterns) => ({
  'no-restricted-imports': ['error', { patterns: patterns.map((p) => (p.regex ? { regex: p.regex, message: p.message } : { group: p.group, message: p.message })) }],
});

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', '.cache/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    // No import cycles anywhere: between files, and so between modules (which meet only at their index.ts).
    files: ['{api,web,workers,shared}/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
      'import-x/extensions': ['.ts', '.tsx'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['shared/**/*.ts'],
    ignores: ['shared/**/*.test.ts'],
    languageOptions: { globals: {} },
    rules: boundary([
      { group: ['**/web/**', '**/api/**', '**/workers/**', '**/e2e/**', '../web', '../api', '../workers'], message: 'shared/ imports nothing of ours.' },
      { group: ['node:*', 'fs', 'path', 'react', 'react-dom', 'kysely', 'fastify'], message: 'shared/ stays free of DOM, Node and framework code.' },
    ]),
  },
  {
    files: ['api/**/*.ts'],
    languageOptions: { globals: globals.node },
    rules: boundary([
      { group: ['**/web/**', '**/workers/**', '**/e2e/**'], message: 'api/ imports only shared/.' },
    ]),
  },
  // Inside api/: platform <- integrations <- modules <- the composition root (app.ts, bootstrap.ts, seed/).
  {
    files: ['api/**/*.ts'],
    ignores: API_TESTS,
    plugins: { framemerch: { rules: { 'no-folder-cycle': folderCycles } } },
    rules: {
      'framemerch/no-folder-cycle': 'error',
      'no-restricted-syntax': ['error', ...SQL_SYNTAX],
      ...apiImports([]),
    },
  },
  {
    files: ['api/**/repository.ts'],
    ignores: API_TESTS,
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['api/platform/**/*.ts'],
    ignores: API_TESTS,
    rules: apiImports([{ regex: '(^|/)(modules|integrations)(/|$)', message: 'platform/ imports no module and no integration: it is what they stand on.' }]),
  },
  {
    files: ['api/integrations/**/*.ts'],
    ignores: API_TESTS,
    rules: apiImports([{ regex: '(^|/)modules(/|$)', message: 'an integration imports platform/ only: it reaches a module the way the outside service does (HTTP, signed webhooks).' }]),
  },
  {
    // A module file: '../<other>/<file>' is another module's inside; only its index.ts is open.
    files: ['api/modules/*/*.ts'],
    ignores: API_TESTS,
    rules: apiImports([{ regex: '^\\.\\./(?!\\.)[^/]+/(?!index\\.ts$)', message: "a module uses another module only through that module's index.ts." }]),
  },
  {
    files: ['api/modules/*/routes.ts', 'api/modules/*/*.routes.ts'],
    ignores: API_TESTS,
    rules: apiImports([
      { regex: "^\\.\\./(?!\\.)[^/]+/(?!index\\.ts$)", message: "a module uses another module only through that module's index.ts." },
      { regex: '(^kysely$|/platform/db/|(^|/)repository\\.ts$)', message: 'routes speak HTTP only: the database is reached through the service.' },
    ]),
  },
  {
    files: ['workers/**/*.ts'],
    languageOptions: { globals: globals.worker },
    rules: boundary([
      { group: ['**/web/**', '**/api/**', '**/e2e/**'], message: 'workers/ import only shared/.' },
    ]),
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...boundary([{ group: ['**/api/**', '**/e2e/**'], message: 'web/ imports shared/ and worker types only.' }]).valueOf(),
    },
  },
  {
    files: ['web/features/**/*.{ts,tsx}'],
    rules: boundary([
      { group: ['**/api/**', '**/e2e/**'], message: 'web/ imports shared/ and worker types only.' },
      { group: ['../../app/*', '../../app', '**/web/app/**'], message: 'features do not import the app layer.' },
      // '../<name>/…' from a feature folder is a sibling feature; '../../lib/…' is not.
      { regex: '^\\.\\./[^.]|/features/', message: 'a feature never imports another feature: move what two need to stores/, components/ or lib/, or let app/ hand it in.' },
    ]),
  },
  {
    files: ['web/components/**/*.{ts,tsx}', 'web/lib/**/*.{ts,tsx}', 'web/stores/**/*.{ts,tsx}'],
    rules: boundary([
      { group: ['**/api/**', '**/e2e/**'], message: 'web/ imports shared/ and worker types only.' },
      { regex: '(^|/)(features|app)/', message: 'components/, lib/ and stores/ know no feature and no app layer: features and app/ import them, never the reverse.' },
    ]),
  },
  {
    files: ['e2e/**/*.ts', 'scripts/**/*.{ts,mjs,js}', '*.config.ts', '*.config.js', '**/*.test.ts'],
    languageOptions: { globals: globals.node },
  },
);
