// Completes Next's standalone output into a folder that runs with Node alone
// (npm run build runs it after `next build`):
//
//   server.js        the console: `node server.js` (PORT, HOSTNAME, and the
//                    environment lib/env.ts reads)
//   migrate.mjs      `node migrate.mjs`: applies pending migrations to DATABASE_URL
//   accounts.mjs     `node accounts.mjs <command>`: sign-in accounts and API tokens
//   prisma/          the schemas and migrations both commands and the server read
//   .next/static/    the browser's assets, which Next leaves out of standalone
//
// `node scripts/standalone.mjs [--out <dir>]` writes it to <dir> (default: the
// standalone folder itself, completed in place).
import { cpSync, existsSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const distDir = join(root, process.env.NEXT_DIST_DIR || '.next');
const standalone = join(distDir, 'standalone');
const outFlag = process.argv.indexOf('--out');
const out = outFlag >= 0 ? resolve(process.argv[outFlag + 1] ?? '') : standalone;

if (!existsSync(join(standalone, 'server.js'))) {
  console.error(`No standalone build in ${standalone}: run \`next build\` first (next.config.js sets output: 'standalone').`);
  process.exit(1);
}
if (out !== standalone) {
  rmSync(out, { recursive: true, force: true });
  cpSync(standalone, out, { recursive: true, verbatimSymlinks: true });
}
cpSync(join(distDir, 'static'), join(out, '.next', 'static'), { recursive: true });
for (const provider of ['sqlite', 'postgresql']) {
  // Replaced, not merged: a renamed migration must not be left beside its new name.
  rmSync(join(out, 'prisma', provider), { recursive: true, force: true });
  cpSync(join(root, 'prisma', provider), join(out, 'prisma', provider), {
    recursive: true,
    filter: (source) => !source.endsWith('.d.ts'),
  });
}
// The migration engine reads its .wasm beside its glue at run time; make sure the whole package is there.
const engine = join('node_modules', '@prisma', 'schema-engine-wasm');
cpSync(join(root, engine), join(out, engine), { recursive: true });

// The commands: bundled from their TypeScript with their pure-JS dependencies;
// the database drivers and Prisma's packages (native code, a .wasm read at run
// time) stay external, loaded from the node_modules Next traced for the server.
// Each runs from its own folder, as server.js does.
const EXTERNAL = ['better-sqlite3', 'pg', 'pg-native', '@prisma/*'];
const banner = [
  "import { createRequire as __createRequire } from 'node:module';",
  "import { dirname as __dirname_of } from 'node:path';",
  "import { fileURLToPath as __file_of } from 'node:url';",
  'const require = __createRequire(import.meta.url);',
  'process.chdir(__dirname_of(__file_of(import.meta.url)));',
].join('\n');
for (const [entry, name] of [
  ['scripts/db-migrate.ts', 'migrate.mjs'],
  ['scripts/accounts.ts', 'accounts.mjs'],
]) {
  await build({
    entryPoints: [join(root, entry)],
    outfile: join(out, name),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: EXTERNAL,
    banner: { js: banner },
    logLevel: 'warning',
  });
}
console.log(`Standalone server in ${out}: node server.js; node migrate.mjs; node accounts.mjs`);
