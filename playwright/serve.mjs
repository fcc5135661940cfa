#!/usr/bin/env node
// Serves a Statehouse console for a test run (`statehouse-test-server`, what
// statehouseWebServer() starts): a production build of this checkout (built
// on first use), on 127.0.0.1, on a fresh embedded SQLite database per run
// unless DATABASE_URL names one. Plain JavaScript: it runs where Statehouse
// is installed, without a TypeScript loader. The database comes from
// STATEHOUSE_DATABASE_URL, never DATABASE_URL: that is usually the suite's own app's.
//
//   statehouse-test-server [--port 3400] [--rebuild]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
const portArg = args.indexOf('--port');
const port = portArg >= 0 ? args[portArg + 1] : process.env.PORT || '3400';
if (!/^\d+$/.test(port ?? '')) {
  console.error(`statehouse-test-server: --port needs a number, got ${String(port)}`);
  process.exit(2);
}
const nextCli = createRequire(join(root, 'package.json')).resolve('next/dist/bin/next');
const distDir = process.env.NEXT_DIST_DIR || '.next';

let databaseFile = null;
let databaseUrl = process.env.STATEHOUSE_DATABASE_URL;
if (!databaseUrl) {
  databaseFile = join(tmpdir(), `statehouse-test-${Date.now()}-${process.pid}.db`);
  databaseUrl = `file:${databaseFile}`;
}
const env = {
  ...process.env,
  DATABASE_URL: databaseUrl,
  STATEHOUSE_ROOT: root,
  STATEHOUSE_HOST: '127.0.0.1',
  NEXT_TELEMETRY_DISABLED: '1',
};

if (args.includes('--rebuild') || !existsSync(join(root, distDir, 'BUILD_ID'))) {
  console.log(`statehouse-test-server: building the console in ${root} (once; --rebuild to redo it)`);
  const build = spawnSync(process.execPath, [nextCli, 'build'], { cwd: root, env, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// The console migrates an embedded SQLite database on first use; the readiness check makes that first use.
console.log(`statehouse-test-server: http://127.0.0.1:${port} on ${databaseFile ?? 'STATEHOUSE_DATABASE_URL'}`);
const server = spawn(process.execPath, [nextCli, 'start', '--hostname', '127.0.0.1', '--port', port], {
  cwd: root,
  env,
  stdio: 'inherit',
});

function removeDatabase() {
  if (!databaseFile) return;
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${databaseFile}${suffix}`, { force: true });
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (server.exitCode === null) server.kill(signal);
  });
}
server.on('exit', (code, signal) => {
  removeDatabase();
  process.exit(code ?? (signal ? 0 : 1));
});
