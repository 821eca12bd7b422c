// Lint rules, including the import boundaries between the four source trees:
// shared imports nothing of ours; workers and api import only shared; web imports shared
// and worker types; e2e may import shared only.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
      { regex: '^\\.\\./[^.]|/features/', message: 'a feature never imports another feature: move what two need to components/ or lib/.' },
    ]),
  },
  {
    files: ['e2e/**/*.ts', 'scripts/**/*.{ts,mjs,js}', '*.config.ts', '*.config.js', '**/*.test.ts'],
    languageOptions: { globals: globals.node },
  },
);
