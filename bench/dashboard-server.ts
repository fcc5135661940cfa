// A production server of the dashboard for --dashboard: its own build output
// (NEXT_DIST_DIR, built here when absent), its own port and its own SQLite
// file under .data/ (kept between runs: seeding 100,000 sessions takes a
// while), migrated and seeded before the server opens it.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Options } from './options';

export const DASHBOARD_DATABASE_URL = 'file:./.data/bench-dashboard.db';

export interface DashboardServer {
  url: string;
  databaseUrl: string;
  stop(): Promise<void>;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited ${code}`))));
  });
}

async function waitUntilUp(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`next start exited ${child.exitCode}`);
    const up = await fetch(url).then(
      (res) => res.status < 500,
      () => false,
    );
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the dashboard did not answer at ${url} within ${timeoutMs / 1000} s`);
}

export async function startDashboard(options: Options, log: (message: string) => void): Promise<DashboardServer> {
  const databaseUrl = DASHBOARD_DATABASE_URL;
  const env = { ...process.env, NEXT_DIST_DIR: options.distDir, DATABASE_URL: databaseUrl, NEXT_TELEMETRY_DISABLED: '1' };
  if (!existsSync(join(options.distDir, 'BUILD_ID'))) {
    log(`dashboard: no build in ${options.distDir}, running next build (a few minutes)`);
    await run('npx', ['next', 'build'], env);
  }
  const url = `http://127.0.0.1:${options.dashboardPort}`;
  log(`dashboard: next start on ${url} (${options.distDir}, ${databaseUrl})`);
  const child = spawn('npx', ['next', 'start', '--port', String(options.dashboardPort)], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  const stop = async () => {
    if (child.exitCode !== null || child.pid === undefined) return;
    // npx starts next as a child of its own: end the whole group this run started.
    process.kill(-child.pid, 'SIGTERM');
    await new Promise((resolve) => child.once('close', resolve));
  };
  try {
    await waitUntilUp(url, child, 60_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, databaseUrl, stop };
}
