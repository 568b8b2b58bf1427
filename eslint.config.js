import js from '@eslint/js';
import globals from 'globals';
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * The server's layers (decision 0058), from the ground up: lib; config; db and storage; search; plugins; the
 * modules, each importing only the modules it is listed with below (so never one above it); the play origin; seed;
 * and at the top the app (app.ts, services.ts, server.ts, web-app.ts, openapi.ts), which may import anything.
 */
const serverModuleImports = {
  // Foundations: no other module.
  'stored-files': [],
  previews: [],
  inbox: [],
  legal: [],
  health: [],
  users: ['stored-files'],
  games: ['previews', 'stored-files'],
  mail: ['users'],
  metrics: ['games'],
  'file-usage': ['games'],
  'helper-files': ['games', 'stored-files'],
  'play-paths': ['games', 'previews'],
  'user-games': ['games', 'inbox', 'stored-files', 'play-paths'],
  // A version's files: versions (with their intake and composed sheets) below their history, and atlases (which
  // only recognise sheets) below both (decision 0055).
  atlases: ['games'],
  versions: ['atlases', 'file-usage', 'games', 'play-paths', 'previews', 'stored-files', 'user-games'],
  'version-history': ['games', 'stored-files', 'versions'],
  review: ['atlases', 'games', 'inbox', 'versions'],
  admin: ['atlases', 'games', 'stored-files', 'version-history', 'versions'],
};
const server = (...types) => ({ element: { type: types.map((type) => `server-${type}`) } });
// The files beside app.ts: the configuration low, the app itself at the top.
const config = { file: { categories: 'server-config' } };
const app = { file: { categories: 'server-app' } };
const serverModules = (...names) => ({ element: { type: 'server-module', captured: { module: names } } });

const serverBoundaries = {
  files: ['apps/server/src/**/*.{ts,mjs}'],
  plugins: { boundaries },
  settings: {
    'import/resolver': { node: { extensions: ['.ts', '.mjs', '.js'] } },
    'boundaries/elements': [
      { type: 'server-lib', pattern: 'apps/server/src/lib' },
      { type: 'server-db', pattern: 'apps/server/src/db' },
      { type: 'server-storage', pattern: 'apps/server/src/storage' },
      { type: 'server-search', pattern: 'apps/server/src/search' },
      { type: 'server-plugin', pattern: 'apps/server/src/plugins' },
      { type: 'server-module', pattern: 'apps/server/src/modules/*', capture: ['module'] },
      { type: 'server-play', pattern: 'apps/server/src/play' },
      { type: 'server-seed', pattern: 'apps/server/src/seed' },
    ],
    'boundaries/files': [
      { category: 'server-config', pattern: 'apps/server/src/{config,environment}.ts' },
      { category: 'server-app', pattern: 'apps/server/src/{app,server,services,web-app,openapi}.ts' },
    ],
  },
  rules: {
    'boundaries/dependencies': [
      'error',
      {
        default: 'disallow',
        policies: [
          { from: server('lib'), allow: { to: server('lib') } },
          // Its one exception: byte ranges answer the storage's ByteRange type.
          { from: server('lib'), allow: { to: server('storage'), dependency: { kind: 'type' } } },
          { from: config, allow: { to: [server('lib'), config] } },
          { from: server('db'), allow: { to: [server('lib', 'db'), config] } },
          { from: server('storage'), allow: { to: [server('lib', 'storage'), config] } },
          { from: server('search'), allow: { to: server('lib', 'db', 'search') } },
          { from: server('plugin'), allow: { to: server('lib', 'db', 'storage', 'plugin') } },
          ...Object.entries(serverModuleImports).map(([name, imports]) => ({
            from: serverModules(name),
            allow: {
              to: [
                server('lib', 'db', 'storage', 'search', 'plugin'),
                config,
                serverModules(name, ...imports),
              ],
            },
          })),
          {
            from: server('play'),
            allow: { to: [server('lib', 'db', 'storage', 'plugin', 'module', 'play'), config] },
          },
          { from: server('seed'), allow: { to: [server('lib', 'db', 'module', 'seed'), config] } },
          {
            from: app,
            allow: {
              to: [server('lib', 'db', 'storage', 'search', 'plugin', 'module', 'play', 'seed'), config, app],
            },
          },
        ],
      },
    ],
  },
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      '**/data/**',
      'e2e/test-results/**',
      'e2e/playwright-report/**',
      'e2e/.tmp/**',
      'apps/server/sample-game/**',
      // Heads of real games' loaders, cut at a fixed length: not our code, and not whole scripts.
      'apps/server/test/fixtures/engines/**',
      // The game corpus for the gate suite: third-party builds, not our code.
      'corpus/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  serverBoundaries,
  // The server's test files share a worker's loaded modules (apps/server/vitest.config.ts): one that replaces a
  // module would replace it for the files after it, so only *.isolated.test.ts files, run apart, may.
  {
    files: ['apps/server/**/*.test.ts'],
    ignores: ['apps/server/**/*.isolated.test.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['mock', 'doMock', 'unmock', 'stubGlobal', 'stubEnv'].map((property) => ({
          object: 'vi',
          property,
          message: 'Name the file *.isolated.test.ts: it then runs with a module graph of its own.',
        })),
      ],
    },
  },
  // Web features apart: a feature may import the shared layers (api/, components/, config/, lib/) but never
  // another feature, and the shared layers import no feature; what two features need moves to a shared layer
  // (decision 0056).
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.tsx'] } },
      'boundaries/elements': [
        { type: 'web-feature', pattern: 'apps/web/src/features/*', capture: ['feature'] },
        { type: 'web-shared', pattern: 'apps/web/src/{api,components,config,lib}' },
      ],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          policies: [
            {
              from: { element: { type: 'web-shared' } },
              disallow: { to: { element: { type: 'web-feature' } } },
            },
            {
              from: { element: { type: 'web-feature' } },
              disallow: {
                to: {
                  element: { type: 'web-feature', captured: { feature: '!{{ from.captured.feature }}' } },
                },
              },
            },
          ],
        },
      ],
    },
  },
);
