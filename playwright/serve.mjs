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
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Whether a process of this id still runs (EPERM: it does, as another user's). */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

// The reaper: embedded databases whose server is gone (a run killed before it could clean up) are removed at the next start.
for (const name of readdirSync(tmpdir())) {
  const owner = /^statehouse-test-\d+-(\d+)\.db(?:-wal|-shm|-journal)?$/.exec(name);
  if (owner && !alive(Number(owner[1]))) rmSync(join(tmpdir(), name), { force: true });
}

const packageRoot = dirname(dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
const portArg = args.indexOf('--port');
const port = portArg >= 0 ? args[portArg + 1] : process.env.PORT || '3400';
if (!/^\d+$/.test(port ?? '')) {
  console.error(`statehouse-test-server: --port needs a number, got ${String(port)}`);
  process.exit(2);
}
const nextCli = createRequire(join(packageRoot, 'package.json')).resolve('next/dist/bin/next');

/**
 * Next will not build an app inside node_modules (where an install from git
 * puts Statehouse): there the console is built from a copy of its sources
 * (STATEHOUSE_CONSOLE_DIR, default a directory per project in the system's
 * temporary directory, out of the suite's way), whose node_modules is the
 * suite's; refreshed when the installed version changes.
 */
function consoleRoot() {
  if (!packageRoot.split(sep).includes('node_modules')) return packageRoot;
  const modules = packageRoot.slice(0, packageRoot.lastIndexOf(`${sep}node_modules${sep}`) + `${sep}node_modules`.length);
  const project = dirname(modules);
  const dir =
    process.env.STATEHOUSE_CONSOLE_DIR ||
    join(tmpdir(), `statehouse-console-${createHash('sha256').update(project).digest('hex').slice(0, 12)}`);
  const stamp = (path) => (existsSync(path) ? readFileSync(path, 'utf8') : null);
  if (stamp(join(dir, 'package.json')) !== stamp(join(packageRoot, 'package.json'))) {
    console.log(`statehouse-test-server: copying the console's sources to ${dir}`);
    rmSync(dir, { recursive: true, force: true });
    cpSync(packageRoot, dir, {
      recursive: true,
      filter: (source) =>
        !relative(packageRoot, source)
          .split(sep)
          .some((part) => part === 'node_modules' || part === '.next'),
    });
    symlinkSync(modules, join(dir, 'node_modules'), 'dir');
  }
  return dir;
}
const root = consoleRoot();
const distDir = process.env.NEXT_DIST_DIR || '.next';

let databaseFile = null;
let databaseUrl = process.env.STATEHOUSE_DATABASE_URL;
if (!databaseUrl) {
  databaseFile = join(tmpdir(), `statehouse-test-${Date.now()}-${process.pid}.db`);
  databaseUrl = `file:${databaseFile}`;
}
const env = {
  ...process.env,
  // Built where it is installed, the console skips the type check its own CI ran (its test files' tools are not installed).
  // and resolves the suite's node_modules from the copy (Turbopack compiles nothing outside its root).
  ...(root === packageRoot ? {} : { STATEHOUSE_SKIP_TYPE_CHECK: '1', STATEHOUSE_TURBOPACK_ROOT: sep }),
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
