/**
 * Import rules of Comptoir (DESIGN.md §2, docs/architecture.md): each line of the layering is one
 * rule here, and `npm test` runs `depcruise` with this file, so an import that goes the wrong way
 * fails the tests (tests/architecture/import-rules.test.ts shows that a planted one does).
 *
 *   client: routes → features/* → shared (ui/, lib/, selection/) → contract
 *   server: routes (and plugins) → domain modules (reports/, counting/, import/, auth/, mail/, …) → db
 *   sw:     contract and the outbox / offline-copy modules of lib/ only
 *   contract imports nothing of ours; client, server and sw meet only in contract.
 */

/** Domain modules of the server: they know no HTTP and throw domain errors (src/server/errors.ts). */
const SERVER_DOMAIN =
  '^src/server/(reports|counting|import|auth|mail|demo|jobs|admin|administration|audit|account|messages|favourites|home|reference|events|forecast|bi|anomalies)/';
/** Shared layer of the client: what every feature may use. */
const CLIENT_SHARED = '^src/client/(ui|lib|selection)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle: two modules that need each other are one module, or a third is missing.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'contract-imports-nothing-of-ours',
      severity: 'error',
      comment: 'src/contract is shared by client, server and service worker: it imports none of them.',
      from: { path: '^src/contract/' },
      to: { path: '^(src/(client|server)|sw)/' },
    },
    {
      name: 'client-never-imports-server',
      severity: 'error',
      comment: 'The client and the server meet only in src/contract.',
      from: { path: '^src/client/' },
      to: { path: '^(src/server|sw)/' },
    },
    {
      name: 'server-never-imports-client',
      severity: 'error',
      comment: 'The client and the server meet only in src/contract.',
      from: { path: '^src/server/' },
      to: { path: '^(src/client|sw)/' },
    },
    {
      name: 'sw-imports-contract-and-outbox-only',
      severity: 'error',
      comment: 'The service worker imports src/contract and the outbox / offline-copy modules of lib/ only.',
      from: { path: '^sw/' },
      to: {
        path: '^src/',
        pathNot: ['^src/contract/', '^src/client/lib/outbox/'],
      },
    },
    {
      name: 'server-db-knows-no-domain',
      severity: 'error',
      comment:
        'db/ is the connection, schema, migrations and generic SQL helpers: it imports no domain, route or plugin.',
      from: { path: '^src/server/db/' },
      to: {
        path: ['^src/server/', '^src/contract/'],
        pathNot: '^src/server/(db/|config\\.ts$|memory\\.ts$)',
      },
    },
    {
      name: 'server-domain-knows-no-http',
      severity: 'error',
      comment: 'Domain modules know no HTTP: no routes, no plugins, no Fastify. They throw domain errors.',
      from: { path: SERVER_DOMAIN },
      to: {
        path: [
          '^src/server/(routes|plugins)/',
          '^src/server/app\\.ts$',
          '(^|/)node_modules/(fastify|@fastify)/',
        ],
      },
    },
    {
      name: 'server-domain-not-into-cli',
      severity: 'error',
      comment:
        'cli/ and main.ts start things; only cli/ imports them (cli/start.ts starts the server through main.ts).',
      from: { path: '^src/server/', pathNot: '^src/server/cli/' },
      to: { path: ['^src/server/cli/', '^src/server/main\\.ts$'] },
    },
    {
      name: 'server-routes-leave-sql-to-the-domain',
      severity: 'error',
      comment:
        'Routes are HTTP (schemas, rights, status codes, headers); reads and writes live in a domain module. A route may name the Database type (db/connect.ts) to hand it on, nothing else of db/.',
      from: { path: '^src/server/routes/' },
      to: { path: '^src/server/db/', pathNot: '^src/server/db/connect\\.ts$' },
    },
    {
      name: 'client-feature-imports-no-other-feature',
      severity: 'error',
      comment:
        'Features do not import each other: what two share moves to ui/, lib/ or selection/, or the route composes them.',
      from: { path: '^src/client/features/([^/]+)/' },
      to: { path: '^src/client/features/', pathNot: '^src/client/features/$1/' },
    },
    {
      name: 'client-features-import-no-routes-or-app',
      severity: 'error',
      comment: 'Features are composed by routes; they never import a route or the app shell.',
      from: { path: '^src/client/features/' },
      to: {
        path: ['^src/client/(routes|app)/', '^src/client/routeTree\\.gen\\.ts$', '^src/client/main\\.tsx$'],
      },
    },
    {
      name: 'client-shared-imports-no-feature',
      severity: 'error',
      comment:
        'ui/, lib/ and selection/ are shared by every feature; they import no feature, route or app module.',
      from: { path: CLIENT_SHARED },
      to: {
        path: [
          '^src/client/(features|routes|app)/',
          '^src/client/routeTree\\.gen\\.ts$',
          '^src/client/main\\.tsx$',
        ],
      },
    },
    {
      name: 'client-outbox-one-door',
      severity: 'error',
      comment:
        "Features queue, resend, read and list their unsent writes through lib/outbox/page-outbox.ts only (with its live-query hook and the offline-copy message names); the rest of lib/outbox is the outbox's own.",
      from: { path: '^src/client/', pathNot: '^src/client/lib/outbox/' },
      to: {
        path: '^src/client/lib/outbox/',
        pathNot: '^src/client/lib/outbox/(page-outbox|use-live-query|offline-copy-protocol)\\.ts$',
      },
    },
    {
      name: 'client-ui-imports-no-lib-state',
      severity: 'error',
      comment:
        'ui/ holds presentational components: it may format (lib/format, lib/i18n) but holds no app state.',
      from: { path: '^src/client/ui/' },
      to: { path: '^src/client/(selection)/' },
    },
    {
      name: 'client-selection-below-lib-only',
      severity: 'error',
      comment:
        'selection/ is shared state and pickers: it may use ui/ and lib/, never the reverse (lib/ stays below).',
      from: { path: '^src/client/lib/' },
      to: { path: '^src/client/(selection|ui)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    // TypeScript 7 has no compiler API for dependency-cruiser to use: @swc/core parses the sources.
    // Its reader sees type-only imports too (`import type`), so those count as dependencies
    // without tsPreCompilationDeps, an option that would ask for the compiler API.
    tsPreCompilationDeps: false,
    parser: 'swc',
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
