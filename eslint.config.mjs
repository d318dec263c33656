// @ts-check
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
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

// Server modules by domain (server/src/modules/README.md): each moved domain and the schema files
// (server/src/db/schema/<file>.ts) whose tables it owns. A domain joins this list once moved.
const DOMAINS = {
  accounts: ['users'],
  attachments: ['attachments', 'files'],
  challenges: ['challenges'],
  games: ['games'],
  instances: ['instances', 'installation'],
  notices: ['notices'],
  participations: ['participations'],
  posts: ['posts'],
  scoreboard: [],
  settings: ['config'],
  submissions: ['submissions'],
  teams: ['teams'],
};

/** Every TypeScript file under server/src, relative to it ('modules/posts/index.ts'). */
function serverFiles(dir = 'server/src', prefix = '') {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = prefix + entry.name;
    if (entry.isDirectory()) return serverFiles(join(dir, entry.name), `${path}/`);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}
const SERVER_FILES = serverFiles();
const outside = (folder) =>
  SERVER_FILES.filter((file) => !file.startsWith(`${folder}/`)).map((file) => `./server/src/${file}`);
const DOMAIN_ZONES = Object.entries(DOMAINS).flatMap(([domain, tables]) => [
  {
    target: outside(`modules/${domain}`),
    from: `./server/src/modules/${domain}`,
    // read-models.ts: the subqueries the module publishes for others to join (lib/read-model.ts); it
    // imports only its tables, so importing it directly can never be part of an import cycle.
    except: ['./index.ts', './read-models.ts'],
    message: `other code reaches the ${domain} module through its index.ts (or joins its read-models.ts)`,
  },
  ...tables.map((table) => ({
    target: outside(`modules/${domain}`).filter((file) => !file.startsWith('./server/src/db/')),
    from: `./server/src/db/schema/${table}.ts`,
    message: `only the ${domain} module touches these tables; ask it through its index.ts, or join its read-models.ts`,
  })),
]);
// The logs table is no domain's: the logger writes it (every module logs through request.log) and
// the admin's log page reads it, both in plugins/app/logs.*.
const LOGS_ZONE = {
  target: SERVER_FILES.filter((file) => file !== 'plugins/app/logs.repository.ts' && !file.startsWith('db/')).map(
    (file) => `./server/src/${file}`,
  ),
  from: './server/src/db/schema/logs.ts',
  message: 'the logs table belongs to the logger: write through request.log, read through plugins/app/logs.service',
};
const SCHEMA_BARREL_ZONE = {
  target: outside('db'),
  from: './server/src/db/schema/index.ts',
  message: 'import the table file (db/schema/<file>), so the ownership rule sees which tables are used',
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
            ...DOMAIN_ZONES,
            LOGS_ZONE,
            SCHEMA_BARREL_ZONE,
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
  // Inside `db.transaction((tx) => ...)` every query goes through `tx`: on PGlite (one connection) a
  // query on the outer handle waits for the transaction to end, i.e. forever. The types keep `tx` from
  // opening a transaction (db/client.ts); this catches the outer handle used instead.
  {
    files: ['server/src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.property.name='transaction'] > :function :matches(Identifier[name='db']:not(MemberExpression > Identifier.property), MemberExpression[property.name='db'])",
          message:
            'inside a transaction use its tx: a query on the outer db waits for the transaction forever on PGlite',
        },
      ],
    },
  },
  // A write that must be atomic is one service call (architecture §6.4), so routes never open a transaction.
  {
    files: ['server/src/**/*.routes.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='transaction']",
          message: 'routes open no transaction; move the atomic write into a service',
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
