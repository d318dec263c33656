// @ts-check
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const FEATURES = ['account', 'admin', 'edit', 'game', 'info', 'posts', 'team', 'wsrx'];

// The contract's enum values (enums.generated) are plain data with no endpoints to enhance, so any
// module may import them.
const GENERATED = {
  group: ['**/*.generated', '**/*.generated.ts', '!**/enums.generated'],
  message: "import data hooks from the feature's api.ts (or recentApi.ts), which enhance the generated endpoints",
};
const UNTYPED_HOOKS = {
  name: 'react-redux',
  importNames: ['useDispatch', 'useSelector'],
  message: 'use useAppDispatch / useAppSelector from src/app/hooks',
};
// Features may take types (RootState, AppStartListening) from the app, never values (architecture §6.1).
const APP_TYPES_ONLY = {
  group: ['@/app/*', '**/app/*'],
  allowTypeImports: true,
  message: 'features may only import types from src/app; compose features in src/app instead',
};

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'data/**',
      'coverage/**',
      'tests/.artifacts/**',
      'server/src/db/migrations/**',
      '**/*.generated.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ project: ['tsconfig.json', 'server/tsconfig.json'] }),
      ],
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  // Client: React rules and the one-way import flow shared -> features -> app (architecture §6.1).
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      // Dialogs open on their first field through autoFocus on MUI fields (MUI's own pattern, and
      // what a keyboard user expects); autoFocus on a plain element, which would yank a page, stays an error.
      'jsx-a11y/no-autofocus': ['error', { ignoreNonDOM: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './src/shared', from: './src/features', message: 'shared code must not depend on features' },
            { target: './src/shared', from: './src/app', message: 'shared code must not depend on the app' },
            ...FEATURES.map((feature) => ({
              target: `./src/features/${feature}`,
              from: './src/features',
              except: [`./${feature}`],
              message: 'features never import each other; compose them in src/app',
            })),
          ],
        },
      ],
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [GENERATED], paths: [UNTYPED_HOOKS] }],
    },
  },
  {
    files: ['src/features/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [GENERATED, APP_TYPES_ONLY], paths: [UNTYPED_HOOKS] },
      ],
    },
  },
  // The places allowed to touch what the general client rule forbids: the modules that enhance
  // generated endpoints (a feature's api.ts; recentApi.ts, the home page's light slice of the game
  // endpoints; the shared assets and session endpoints) and the typed hooks.
  {
    files: [
      'src/features/*/api.ts',
      'src/features/game/recentApi.ts',
      'src/shared/api/assets.ts',
      'src/shared/api/session.ts',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [APP_TYPES_ONLY], paths: [UNTYPED_HOOKS] }],
    },
  },
  { files: ['src/app/hooks.ts'], rules: { '@typescript-eslint/no-restricted-imports': 'off' } },
  // A feature's typed hooks over the slice it owns (features cannot import the app's typed hooks).
  {
    files: ['src/features/*/hooks.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [GENERATED, APP_TYPES_ONLY] }] },
  },
  // Server: routes -> service -> repository, and process.env only in env.ts (architecture §6).
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['server/**/*.ts', 'tests/**/*.ts', 'openapi/**/*.ts', '*.ts'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['server/src/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'read settings through server/src/env.ts' },
      ],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './server/src/**/*.repository.ts',
              from: ['./server/src/**/*.service.ts', './server/src/**/*.routes.ts'],
              message: 'repositories only run queries; they never call services or routes',
            },
            {
              target: './server/src/**/*.service.ts',
              from: './server/src/**/*.routes.ts',
              message: 'services hold the rules; routes call them, not the other way round',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['server/src/**/*.routes.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/db/*', '**/db/**', '**/*.repository'],
              allowTypeImports: true,
              message: 'routes reach the database through a service and its repository',
            },
          ],
        },
      ],
    },
  },
  { files: ['server/src/env.ts'], rules: { 'no-restricted-properties': 'off' } },
  {
    files: ['tests/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.node, ...globals.jest } },
    rules: { '@typescript-eslint/no-restricted-imports': 'off' },
  },
);
