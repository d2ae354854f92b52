import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import boundaries from 'eslint-plugin-boundaries';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * The web app's direction, shared → features → app (decision 0105, bulletproof-react): a feature
 * imports no other feature and nothing of app/; components/ and lib/ import neither. What two
 * features share lives in components/ or lib/; app/ composes features. Said by
 * eslint-plugin-boundaries on the resolved path of every import, export and `import()`
 * (issue 46: it was regexes over the import text, one block per feature and folder depth).
 */
const CROSS_FEATURE =
  'A feature never imports another feature: move what both use to components/ or lib/, or compose them in app/ (decision 0105).';
const FEATURE_TO_APP =
  'A feature never imports app/: app/ composes features, not the other way round (decision 0105).';
const SHARED_TO_FEATURE =
  'components/ and lib/ are shared: they import no feature and nothing of app/ (decision 0105).';
const webBoundaries = {
  files: ['apps/web/src/**/*.{ts,tsx}'],
  plugins: { boundaries },
  settings: {
    'boundaries/elements': [
      { type: 'feature', pattern: 'apps/web/src/features/*', capture: ['name'] },
      { type: 'app', pattern: 'apps/web/src/app' },
      { type: 'shared', pattern: 'apps/web/src/{components,lib}' },
    ],
    // The patterns above are from the repository's root, whatever folder ESLint runs in (the
    // web's boundary test runs it from apps/web).
    'boundaries/root-path': path.dirname(fileURLToPath(import.meta.url)),
    'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
    'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } },
  },
  rules: {
    'boundaries/dependencies': [
      'error',
      {
        default: 'allow',
        policies: [
          {
            from: { element: { type: 'feature' } },
            disallow: {
              to: {
                element: {
                  type: 'feature',
                  captured: { name: '!{{ from.element.captured.name }}' },
                },
              },
            },
            message: CROSS_FEATURE,
          },
          {
            from: { element: { type: 'feature' } },
            disallow: { to: { element: { type: 'app' } } },
            message: FEATURE_TO_APP,
          },
          {
            from: { element: { type: 'shared' } },
            disallow: { to: { element: { type: ['feature', 'app'] } } },
            message: SHARED_TO_FEATURE,
          },
        ],
      },
    ],
  },
};

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '**/migrations/**', 'test-results/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  webBoundaries,
  {
    files: ['apps/web/public/sw.js'],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
);
