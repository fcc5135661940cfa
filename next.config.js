/**
 * Packages the server bundle must load with Node's own `require`/`import`
 * instead of bundling them. Turbopack cannot bundle native addons
 * (better-sqlite3's .node file), and the Prisma schema engine reads its .wasm
 * from node_modules at run time (lib/migrate/engine.ts), so these must stay
 * real node_modules packages. Several are on Next's built-in list already;
 * naming them here keeps that true if the list changes.
 *
 * @type {import('next').NextConfig}
 */
const nextConfig = {
  // Lets two builds share a checkout (e2e runs of parallel work trees, a
  // benchmark's build beside a dev server) without overwriting each other.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  // A server folder that runs with `node server.js` alone; scripts/standalone.mjs
  // completes it (static files, migrations, the migrate and accounts commands).
  output: 'standalone',
  serverExternalPackages: [
    'prom-client',
    '@opentelemetry/api',
    '@opentelemetry/exporter-trace-otlp-http',
    '@opentelemetry/resources',
    '@opentelemetry/sdk-trace-node',
    'better-sqlite3',
    'pg',
    '@prisma/client',
    '@prisma/adapter-better-sqlite3',
    '@prisma/adapter-pg',
    '@prisma/driver-adapter-utils',
    '@prisma/schema-engine-wasm',
  ],
  experimental: {
    serverActions: {
      // The dashboard's forms carry a state value (up to 2 MiB of JSON, as
      // lib/validation/limits.ts allows) beside event text; Next's default
      // of 1 MB would refuse them before the action can say why.
      bodySizeLimit: '8mb',
    },
  },
  // statehouse-test-server builds an installed copy without its dev tools (playwright/serve.mjs).
  typescript: { ignoreBuildErrors: process.env.STATEHOUSE_SKIP_TYPE_CHECK === '1' },
  ...(process.env.STATEHOUSE_TURBOPACK_ROOT ? { turbopack: { root: process.env.STATEHOUSE_TURBOPACK_ROOT } } : {}),
  // `next dev` otherwise writes an AGENTS.md into the repository whenever it
  // detects a coding agent; the project keeps its files under its own control.
  agentRules: false,
};

export default nextConfig;
