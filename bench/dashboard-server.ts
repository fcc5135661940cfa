// A production server of the dashboard for --dashboard, started the way the
// load test starts its own (scripts/loadtest/server.ts): its own build output
// (NEXT_DIST_DIR, built when absent), its own port, local mode on 127.0.0.1,
// and its own SQLite file under .data/ (kept between runs: seeding 100,000
// sessions takes a while), migrated and seeded before the server opens it.
import { ensureBuild, ProductionServer } from '../scripts/loadtest/server';
import type { Options } from './options';

export const DASHBOARD_DATABASE_URL = 'file:./.data/bench-dashboard.db';

export interface DashboardServer {
  url: string;
  databaseUrl: string;
  stop(): Promise<void>;
}

export async function startDashboard(options: Options, log: (message: string) => void): Promise<DashboardServer> {
  ensureBuild(options.distDir, log);
  const server = new ProductionServer({
    databaseUrl: DASHBOARD_DATABASE_URL,
    distDir: options.distDir,
    port: options.dashboardPort,
    token: '',
    env: { STATEHOUSE_AUTH: 'local' },
  });
  log(`dashboard: next start on ${server.baseUrl} (${options.distDir}, ${DASHBOARD_DATABASE_URL})`);
  await server.start();
  return { url: server.baseUrl, databaseUrl: DASHBOARD_DATABASE_URL, stop: () => server.stop() };
}
