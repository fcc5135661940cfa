// Time to first byte of two dashboard pages on a running server: the page of
// a session with many events and the page of an app with many sessions. The
// server must read `databaseUrl`; the fixtures are written there once (app
// `statehouse-bench`) and reused by later runs.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { providerOf } from '../lib/db';
import { appPath, sessionPath } from '../lib/paths';
import { listSessions } from './data';
import { openStatehouseTarget } from './implementations/statehouse';
import type { Scale } from './options';
import { median } from './stats';
import { buildEventSession } from './workloads';

export const DASHBOARD_APP = 'statehouse-bench';
const SESSION = { appName: DASHBOARD_APP, userId: 'bench-user', sessionId: 'bench-big' };

export interface PageTiming {
  kind: 'session' | 'app';
  path: string;
  status: number;
  /** Medians over the timed requests (a first, untimed request warms the server). */
  ttfbMs: number;
  totalMs: number;
  bytes: number;
  samples: number;
}

export interface DashboardResult {
  url: string;
  provider: 'sqlite' | 'postgresql';
  sessionEvents: number;
  appSessions: number;
  pages: PageTiming[];
}

export interface DashboardFixture {
  sessionEvents: number;
  appSessions: number;
}

/** Writes the fixtures when missing. `migrate`: only while no server has the database open. */
export async function seedDashboard(databaseUrl: string, scale: Scale, migrate: boolean): Promise<DashboardFixture> {
  const target = await openStatehouseTarget(databaseUrl, { migrate });
  try {
    const existing = await target.get(SESSION, 0);
    if (!existing) await buildEventSession(target, SESSION, scale.dashboardSessionEvents);
    const sessionEvents = (await target.get(SESSION))?.eventCount ?? 0;
    const count = async () => (await target.listPage?.(DASHBOARD_APP, 1))?.total ?? 0;
    let appSessions = await count();
    if (appSessions < scale.dashboardAppSessions) {
      // Users of 100 sessions each; the ids continue after those already there.
      const perUser = 100;
      const all = listSessions(Math.ceil(scale.dashboardAppSessions / perUser), perUser);
      await target.seedSessions(DASHBOARD_APP, all.slice(appSessions, scale.dashboardAppSessions));
      appSessions = await count();
    }
    return { sessionEvents, appSessions };
  } finally {
    await target.close();
  }
}

export function fetchTiming(url: string): Promise<{ status: number; ttfbMs: number; totalMs: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const request = url.startsWith('https:') ? httpsRequest : httpRequest;
    const req = request(url, { headers: { accept: 'text/html' } }, (res) => {
      let first = Number.NaN;
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        if (Number.isNaN(first)) first = performance.now() - start;
        bytes += chunk.length;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ttfbMs: first, totalMs: performance.now() - start, bytes }));
      res.on('error', reject);
    });
    req.setTimeout(120_000, () => req.destroy(new Error(`timeout: ${url}`)));
    req.on('error', reject);
    req.end();
  });
}

async function timePage(kind: PageTiming['kind'], base: string, path: string, samples: number): Promise<PageTiming> {
  const url = new URL(path, base).toString();
  await fetchTiming(url);
  const runs = [];
  for (let i = 0; i < samples; i++) runs.push(await fetchTiming(url));
  return {
    kind,
    path,
    status: runs[0]?.status ?? 0,
    ttfbMs: median(runs.map((r) => r.ttfbMs)),
    totalMs: median(runs.map((r) => r.totalMs)),
    bytes: runs[0]?.bytes ?? 0,
    samples,
  };
}

export async function measureDashboard(baseUrl: string, databaseUrl: string, seeded: DashboardFixture): Promise<DashboardResult> {
  const pages = [
    await timePage('session', baseUrl, sessionPath(SESSION.appName, SESSION.userId, SESSION.sessionId), 5),
    await timePage('app', baseUrl, appPath(DASHBOARD_APP), 5),
  ];
  return { url: baseUrl, provider: providerOf(databaseUrl), ...seeded, pages };
}
