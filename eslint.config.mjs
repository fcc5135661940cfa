// ESLint: Next's rules, typescript-eslint with type information, no import
// cycles, and the layers of README's "Layout" as import fences. A fence names
// what a folder may NOT import (resolved to files, so '@/lib/db' and '../db'
// are the same import); tests may reach across fences to set things up.
import nextCoreWebVitals from 'eslint-config-next/core-web-vitals';
import tseslint from 'typescript-eslint';

// Test code (lib/testing holds the ADK fixture writers, which drive the real ADKs to write test databases).
const TESTS = ['**/*.test.ts', '**/*.test.tsx', 'e2e/**', 'lib/testing/**'];

const LIB = (...names) => names.map((name) => `./lib/${name}`);
const EDGES = LIB('actions', 'http');
const APPLICATION = LIB('commands', 'data');
const INFRASTRUCTURE = LIB('db', 'migrate', 'stores');
const BROWSER_DATA = LIB('queries');
const COMPOSITION = LIB('services.ts');
const UI = ['./app', './components'];

/** A fence: files under `target` may not import from `from` (minus `except`, relative to each `from`). */
const fence = (target, from, message, except) => ({ target, from, message, ...(except ? { except } : {}) });

const zones = [
  // Nothing below the routes knows about pages or components.
  fence('./lib', UI, 'lib/ is below app/ and components/: pass data down instead of importing upward.'),
  // Domain: pure session semantics; stores implement its SessionStore interface.
  fence(
    './lib/session-service',
    ['./lib/!(session-service)/**', './lib/*.ts'],
    'lib/session-service is the domain: it imports nothing else from lib/ (no stores, db, auth, http).',
  ),
  // Infrastructure: databases and the stores over them; they know the domain's types, nothing above.
  fence(
    INFRASTRUCTURE,
    [
      ...EDGES,
      ...APPLICATION,
      ...BROWSER_DATA,
      ...COMPOSITION,
      ...LIB('agent-service', 'auth', 'paths.ts', 'config.ts', 'current-principal.ts'),
    ],
    'Infrastructure (lib/db, lib/migrate, lib/stores) does not import the layers above it.',
  ),
  fence(LIB('db', 'migrate'), LIB('session-service', 'stores'), 'lib/db and lib/migrate are plumbing: no domain or store imports.'),
  // Shared parsers and limits: browser code, over the domain's types only.
  fence(
    './lib/validation',
    ['./lib/!(validation|session-service)/**', './lib/*.ts'],
    'lib/validation runs in the browser too: it imports only lib/session-service.',
  ),
  // Metrics and traces: every layer reports into them, so they import nothing above the environment.
  fence(
    './lib/observability',
    ['./lib/!(observability)/**', './lib/!(env).ts'],
    'lib/observability is a leaf every layer reports into: it imports only lib/env.ts.',
  ),
  fence('./lib/env.ts', ['./lib/**'], 'lib/env.ts is a leaf: it parses the environment and imports nothing from lib/.'),
  fence('./lib/paths.ts', ['./lib/!(session-service)/**', './lib/!(paths).ts'], 'lib/paths.ts builds URLs from names only.'),
  // Application: validated writes and reads, over the store from lib/services.
  fence(
    APPLICATION,
    [...LIB('actions'), ...BROWSER_DATA, ...LIB('agent-service', 'stores', 'migrate')],
    'lib/commands and lib/data get the store from lib/services.ts and do not import edges (lib/actions, lib/http).',
  ),
  // The ADK parsers (case conversion, event and JSON schemas, JSON text) are lib/validation's, shared by both doors.
  fence('./lib/commands', './lib/http', 'lib/commands does not import the HTTP edge.'),
  fence('./lib/data', './lib/http', 'lib/data does not import the HTTP edge.'),
  // Edges: one per door, side by side.
  fence(
    './lib/actions',
    [...LIB('http', 'agent-service', 'stores', 'migrate'), ...BROWSER_DATA],
    'Server actions call lib/commands; the store comes from lib/services.ts.',
  ),
  fence(
    './lib/http',
    [...LIB('actions', 'agent-service', 'stores', 'migrate'), ...BROWSER_DATA],
    'Route helpers call lib/data, lib/commands and the store from lib/services.ts.',
  ),
  fence(
    './lib/agent-service',
    [...EDGES, ...APPLICATION, ...BROWSER_DATA, ...LIB('stores', 'migrate')],
    'The ADK adapter gets its store from lib/services.ts.',
  ),
  // The composition root builds stores; nothing it builds for imports it back.
  fence(
    COMPOSITION,
    [...EDGES, ...APPLICATION, ...BROWSER_DATA, ...LIB('agent-service', 'current-principal.ts')],
    'lib/services.ts is built from infrastructure, not from its callers.',
  ),
  // Who is asking (lib/current-principal.ts) reads the request, the configuration and the account store above lib/auth.
  fence(
    './lib/auth',
    [...EDGES, ...APPLICATION, ...BROWSER_DATA, ...COMPOSITION, ...LIB('agent-service', 'config.ts', 'current-principal.ts')],
    'lib/auth sits below the edges that enforce it, the configuration and the composition root: it takes them as arguments.',
  ),
  // Browser data: React Query over the API; view types from lib/data.
  fence(
    './lib/queries',
    [...EDGES, ...LIB('commands', 'agent-service', 'auth', 'current-principal.ts', 'services.ts', ...['db', 'migrate', 'stores'])],
    'lib/queries runs in the browser: it fetches the API and takes view types from lib/data.',
  ),
  // Components render; they reach the server through actions and queries only.
  fence(
    './components',
    [...INFRASTRUCTURE, ...COMPOSITION, './lib/http', './lib/agent-service', './app'],
    'Components reach the server through lib/actions and lib/queries, with view types from lib/data.',
  ),
  fence('./components/ui', ['./components/!(ui)/**', './lib/**'], 'components/ui holds primitives: no feature components, no lib/.'),
  // Routes reach stores only through lib/services.ts.
  fence('./app', LIB('stores', 'migrate'), 'Routes get the store from lib/services.ts.'),
  // Test support is for tests, the seed and e2e.
  fence(['./app', './components', './lib'], './lib/testing', 'lib/testing is test code: product code does not import it.'),
];

// Configuration is read once, in lib/env.ts (NODE_ENV is not configuration: Next replaces it at build time).
const NO_ENV_READS = [
  {
    selector: "MemberExpression[object.object.name='process'][object.property.name='env'][property.name!='NODE_ENV']",
    message: 'Read configuration from env() in lib/env.ts.',
  },
  {
    selector: "VariableDeclarator[init.object.name='process'][init.property.name='env']",
    message: 'Read configuration from env() in lib/env.ts.',
  },
  {
    selector: "SpreadElement[argument.object.name='process'][argument.property.name='env']",
    message: 'Read configuration from env() in lib/env.ts.',
  },
];

// The API's routes run the commands the console's actions run: none rebuilds a write a command makes.
const NO_COMMAND_REBUILDS = [
  {
    // On a store (`store.append(...)`, `(await getStore()).editState(...)`), not on Headers.
    selector:
      "CallExpression[callee.property.name=/^(append|editState|forkSession|setSessionMeta|prune|importSessions)$/]:matches([callee.object.type='AwaitExpression'], [callee.object.name=/[sS]tore$/])",
    message: 'A route calls the lib/commands function for this write (appendCommand, applyStateEdit, forkCommand, ...).',
  },
  {
    selector: "CallExpression[callee.name='capability'] > Literal[value=/^(forkSession|setSessionMeta|prune|importSessions)$/]",
    message: 'A route calls the lib/commands function for this operation (forkCommand, metaCommand, prune...Command, importCommand).',
  },
  {
    selector: 'ImportSpecifier[imported.name=/^(rewindSession|importSessionFile)$/]',
    message: 'A route calls rewindCommand or importCommand (lib/commands/session-ops.ts).',
  },
];

// A server action is one defineAction call (lib/actions/define.ts): the read-only switch, the role, the input and the
// re-render are checked in one place. Sign-in and sign-out (lib/actions/auth.ts) run before any role and redirect.
const ONE_ACTION_BUILDER = [
  {
    selector: "Program:has(ExpressionStatement[directive='use server']) ExportNamedDeclaration > FunctionDeclaration",
    message: 'Write a server action as `export const name = defineAction({ role, input, run, revalidate })` (lib/actions/define.ts).',
  },
  {
    selector:
      "Program:has(ExpressionStatement[directive='use server']) ExportNamedDeclaration > VariableDeclaration > VariableDeclarator[init.callee.name!='defineAction']",
    message: 'Write a server action as `export const name = defineAction({ role, input, run, revalidate })` (lib/actions/define.ts).',
  },
];

// Controls come from components/ui (Button, Input, Select, Textarea, Label, Choice, Segmented, Tabs): one look, one
// focus ring and one disabled state. A hidden input renders nothing and stays raw.
const UI_PRIMITIVES = [
  {
    selector: 'JSXOpeningElement[name.name=/^(button|select|textarea|label)$/]',
    message: 'Use the primitive from components/ui (Button, Select, Textarea, Label, Choice, Segmented, Tabs).',
  },
  {
    selector: "JSXOpeningElement[name.name='input']:not(:has(JSXAttribute[name.name='type'][value.value='hidden']))",
    message: 'Use the primitive from components/ui (Input, Choice).',
  },
];

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      '.next/**',
      '.next-*/**',
      'lib/generated/**',
      'playwright/dist/**',
      'test-results*/**',
      'playwright-report/**',
      'bench-results/**',
      '.data/**',
      'next-env.d.ts',
    ],
  },
  ...nextCoreWebVitals,
  ...tseslint.configs.recommendedTypeChecked.map((config) => ({ ...config, files: ['**/*.{ts,tsx,mts,cts}'] })),
  {
    files: ['**/*.{ts,tsx,mts,cts}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      // Server actions and event handlers are async by design; a promise handed to onClick is deliberate.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      // Async signatures are contracts (SessionStore over synchronous SQLite, route handlers, server actions).
      '@typescript-eslint/require-await': 'off',
      // String(value) of database rows and caught errors is deliberate; restrict-template-expressions still guards templates.
      '@typescript-eslint/no-base-to-string': 'off',
      // Monkeypatches (lib/http/door.ts) and option callbacks read methods unbound on purpose.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // Tests and benchmarks read untyped JSON answers and rows and poke at mocks; the product code they test is typed.
    files: [...TESTS, 'bench/**'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // It misreads vi.hoisted() factories and drops assertions the type check needs.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
    },
  },
  {
    // Playwright fixtures call their `use` argument, which is not React's use().
    files: ['e2e/**', 'playwright/**'],
    rules: { 'react-hooks/rules-of-hooks': 'off' },
  },
  {
    // Server components render once per request: Date.now() there is the request's time, not an impurity.
    files: ['app/**/page.tsx', 'app/**/layout.tsx', 'components/lists/session-list.tsx', 'components/lists/user-list.tsx'],
    rules: { 'react-hooks/purity': 'off' },
  },
  {
    files: ['**/*.{ts,tsx,mts,cts,js,mjs}'],
    rules: {
      'import/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['app/**', 'components/**', 'lib/**', 'proxy.ts'],
    ignores: TESTS,
    rules: {
      'import/no-restricted-paths': ['error', { zones }],
    },
  },
  {
    // What an action accepts and returns is the command's: components may name those types, and only those.
    files: ['components/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@/lib/commands/*'], allowTypeImports: true, message: 'Components call server actions (lib/actions), not commands.' },
          ],
        },
      ],
    },
  },
  {
    files: ['lib/session-service/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['next', 'next/*', 'react', 'react/*', 'react-dom', 'react-dom/*'],
              message: 'The domain runs anywhere: no Next.js or React.',
            },
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'The domain takes configuration as arguments.' },
      ],
    },
  },
  {
    // Configuration is read once, in lib/env.ts; everything else takes it from there.
    files: ['app/**', 'components/**', 'lib/**', 'proxy.ts'],
    ignores: [...TESTS, 'lib/env.ts'],
    rules: {
      // NODE_ENV is not configuration: Next replaces it at build time, in browser bundles too.
      'no-restricted-syntax': ['error', ...NO_ENV_READS],
    },
  },
  {
    // Rules of one name replace each other: each list below repeats the configuration rule.
    files: ['app/**/*.tsx', 'components/**/*.tsx'],
    ignores: [...TESTS, 'components/ui/**'],
    rules: { 'no-restricted-syntax': ['error', ...NO_ENV_READS, ...UI_PRIMITIVES] },
  },
  {
    // Rules of one name replace each other: the routes' list repeats the configuration rule.
    files: ['lib/http/**', 'app/api/**'],
    ignores: TESTS,
    rules: { 'no-restricted-syntax': ['error', ...NO_ENV_READS, ...NO_COMMAND_REBUILDS] },
  },
  {
    files: ['lib/actions/**'],
    ignores: [...TESTS, 'lib/actions/auth.ts'],
    rules: { 'no-restricted-syntax': ['error', ...NO_ENV_READS, ...ONE_ACTION_BUILDER] },
  },
);
