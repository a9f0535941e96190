// ESLint for the web app (flat config). Beside the TypeScript, React hooks and accessibility
// rules, import zones keep imports one way, as bulletproof-react does:
//   shared (lib/ → components/, content/, config.ts, typeface.ts) → features/<one> → app
//   (App.tsx, main.tsx, pages/)
// No feature imports another feature; lib/ imports no component; no shared file imports a
// feature or the app. Run with `npm run lint` (zero warnings allowed).

import js from '@eslint/js';
import importPlugin from 'eslint-plugin-import';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const FEATURES = ['activation', 'analytics', 'cloud', 'download', 'support'];
const SHARED = ['./src/components', './src/lib', './src/content', './src/config.ts', './src/typeface.ts'];
const APP = ['./src/App.tsx', './src/main.tsx', './src/pages'];
// Test helpers that render the whole app (src/testing/): for tests only, never for product code.
const TESTING = './src/testing';

const zonesFor = (app) => [
  // A feature stands alone: it may use shared code, never another feature.
  ...FEATURES.map((feature) => ({
    target: `./src/features/${feature}`,
    from: './src/features',
    except: [`./${feature}`],
    message: 'A feature imports no other feature: move what both need to lib/ or components/.',
  })),
  // Shared code knows no feature and no page.
  ...SHARED.map((target) => ({
    target,
    from: ['./src/features', ...app],
    message: 'Shared code (lib/, components/, content/) imports no feature and no page.',
  })),
  // lib/ is the floor: no React component of components/ in it.
  { target: './src/lib', from: './src/components', message: 'lib/ imports nothing from components/.' },
  // Features are used by the app, never the other way round.
  { target: './src/features', from: app, message: 'A feature imports nothing from the app (App.tsx, pages/).' },
];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'scripts/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  reactHooks.configs.flat.recommended,
  jsxA11y.flatConfigs.recommended,
  {
    files: ['**/*.{ts,tsx,js}'],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: { ...globals.browser },
    },
    plugins: { import: importPlugin },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.json'] } },
    },
    rules: {
      'import/no-restricted-paths': ['error', { zones: zonesFor([...APP, TESTING]) }],
      // A scrollable region (a wide table, an event's JSON) must be reachable by keyboard to be
      // scrolled (axe: scrollable-region-focusable), so a labelled region or a <pre> may take tabIndex.
      'jsx-a11y/no-noninteractive-tabindex': ['error', { roles: ['tabpanel', 'region'], tags: ['pre'] }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Tests may render the whole app through src/testing/; the other zones hold for them too.
    files: ['src/**/*.test.{ts,tsx}'],
    rules: { 'import/no-restricted-paths': ['error', { zones: zonesFor(APP) }] },
  },
  {
    files: ['vite.config.ts', 'eslint.config.js'],
    languageOptions: { globals: { ...globals.node } },
  },
);
