import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync } from 'node:fs';

/*
 * The web app's direction, shared → features → app (decision 0105, bulletproof-react): a feature
 * imports no other feature and nothing of app/; components/ and lib/ import neither. What two
 * features share lives in components/ or lib/; app/ composes features. no-restricted-imports sees
 * the import text, not the resolved path, so each feature gets one block per folder depth: at depth
 * d, `../` d times climbs to features/, and whatever name follows must be the feature's own.
 */
const WEB_FEATURES = readdirSync(new URL('./apps/web/src/features', import.meta.url), {
  withFileTypes: true,
})
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const FEATURE_DEPTHS = [1, 2, 3, 4];
const CROSS_FEATURE =
  'A feature never imports another feature: move what both use to components/ or lib/, or compose them in app/ (decision 0105).';
const FEATURE_TO_APP =
  'A feature never imports app/: app/ composes features, not the other way round (decision 0105).';
const SHARED_TO_FEATURE =
  'components/ and lib/ are shared: they import no feature and nothing of app/ (decision 0105).';
const webBoundaries = [
  ...WEB_FEATURES.flatMap((feature) =>
    FEATURE_DEPTHS.map((depth) => {
      const up = '\\.\\./'.repeat(depth);
      return {
        files: [`apps/web/src/features/${feature}/${'*/'.repeat(depth - 1)}*.{ts,tsx}`],
        rules: {
          'no-restricted-imports': [
            'error',
            {
              patterns: [
                { regex: `^${up}(?!${feature}(/|$))[^./]`, message: CROSS_FEATURE },
                { regex: `^${up}\\.\\./app(/|$)`, message: FEATURE_TO_APP },
              ],
            },
          ],
          // The same for `import()`, which no-restricted-imports does not see (esquery's regex
          // cannot hold a slash, hence \x2F).
          'no-restricted-syntax': [
            'error',
            {
              selector: `ImportExpression[source.value=/^(\\.\\.\\x2F){${depth}}(?!${feature}(\\x2F|$))[^.\\x2F]/]`,
              message: CROSS_FEATURE,
            },
            {
              selector: `ImportExpression[source.value=/^(\\.\\.\\x2F){${depth + 1}}app(\\x2F|$)/]`,
              message: FEATURE_TO_APP,
            },
          ],
        },
      };
    }),
  ),
  {
    files: ['apps/web/src/{components,lib}/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(\\.\\./)+(features|app)(/|$)', message: SHARED_TO_FEATURE }] },
      ],
    },
  },
];

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
  ...webBoundaries,
  {
    files: ['apps/web/public/sw.js'],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
);
